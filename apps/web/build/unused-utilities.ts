import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const CLASS_NAME = /\.(-?[_a-zA-Z][\w-]*)/g;
const TOKEN = /[\w-]+/g;

/** Every word-like token in `paths` (files, and folders' files with one of `extensions`): the class names used. */
function tokensIn(paths: string[], extensions: RegExp): Set<string> {
  const tokens = new Set<string>();
  const files = paths.flatMap((entry) =>
    statSync(entry).isDirectory()
      ? readdirSync(entry, { recursive: true, withFileTypes: true })
          .filter((child) => child.isFile() && extensions.test(child.name))
          .map((child) => path.join(child.parentPath, child.name))
      : [entry],
  );
  for (const file of files) {
    for (const token of readFileSync(file, 'utf8').match(TOKEN) ?? []) tokens.add(token);
  }
  return tokens;
}

/** The parts of PostCSS's tree this plugin reads (Vite brings PostCSS; the app does not depend on it). */
interface CssNode {
  type: string;
  important?: boolean;
}
interface CssRule {
  selector: string;
  nodes: CssNode[];
  remove(): void;
}
interface CssAtRule {
  nodes?: CssNode[];
  remove(): void;
}
interface CssRoot {
  walkRules(visit: (rule: CssRule) => void): void;
  walkAtRules(visit: (atRule: CssAtRule) => void): void;
}

/**
 * Drops Bootstrap's utility classes (`.mb-3`, `.text-bg-danger`: rules whose every declaration is
 * `!important`) that none of `sources` (files and folders) names; component styles and element rules stay whole.
 * Bootstrap generates several hundred utilities and the screens use a few dozen, and the stylesheet blocks
 * the first paint. A class is kept when its name appears anywhere as a word, so a name written in a string
 * or a comment keeps it too; a name put together at run time (`text-${tone}`) would not be found: write
 * class names whole.
 */
export function dropUnusedUtilities(sources: string[]) {
  const used = tokensIn(sources, /\.(tsx?|jsx?|mjs|css|scss|html)$/);
  return {
    postcssPlugin: 'portal-drop-unused-utilities',
    OnceExit(root: CssRoot) {
      root.walkRules((rule) => {
        const declarations = rule.nodes.filter((node) => node.type === 'decl');
        if (declarations.length === 0 || !declarations.every((declaration) => declaration.important)) return;
        const classes = [...rule.selector.matchAll(CLASS_NAME)].map((match) => match[1]!);
        if (classes.length > 0 && !classes.some((name) => used.has(name))) rule.remove();
      });
      root.walkAtRules((atRule) => {
        if (atRule.nodes?.length === 0) atRule.remove();
      });
    },
  };
}
