import purgeCSSPlugin from '@fullhuman/postcss-purgecss';
import type { Plugin, Root } from 'postcss';

/**
 * The utilities react-bootstrap puts together from a component's props (Badge and Card: `bg-${bg}`,
 * `text-${text}`, `border-${border}`), for the theme colours those props take: kept whether named or not.
 */
const COMPOSED_FROM_PROPS = /^(bg|text|border)-(primary|secondary|success|info|warning|danger|light|dark)$/;

/** The stylesheet of Bootstrap's utility classes (src/app/bootstrap-utilities.scss), the only one purged. */
const UTILITIES_SHEET = /[\\/]bootstrap-utilities\.scss$/;

/**
 * Drops Bootstrap's utility classes (`.mb-3`, `.text-bg-danger`) that none of `content` (files, folders, globs)
 * names, with PurgeCSS. Bootstrap generates several hundred utilities and the screens use a few dozen, and the
 * stylesheet blocks the first paint. Only the utilities' own stylesheet is purged: react-bootstrap puts the
 * components' class names together at run time (`${prefix}-${variant}`), which no scan of the sources can
 * find, while a utility is named whole where it is used, but for the few react-bootstrap composes from props
 * (COMPOSED_FROM_PROPS). A class is kept when its name appears anywhere
 * as a word, so a name written in a string or a comment keeps it too; a name put together at run time
 * (`text-${tone}`) would not be found: write utility class names whole.
 */
export function dropUnusedUtilities(content: string[]): Plugin {
  const purge = purgeCSSPlugin({ content, safelist: { standard: [COMPOSED_FROM_PROPS] } }) as Plugin;
  return {
    postcssPlugin: 'portal-drop-unused-utilities',
    async OnceExit(root: Root, helpers) {
      if (!UTILITIES_SHEET.test(root.source?.input.file ?? '')) return;
      await (purge.OnceExit as (root: Root, helpers: unknown) => Promise<void>)(root, helpers);
    },
  };
}
