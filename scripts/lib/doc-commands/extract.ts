/**
 * The shell commands the operator-facing pages show, as a reader copies them: every fenced ```sh, ```bash or
 * ```console block (a `$ ` prompt dropped), and every inline code span that is a curl call, each with its page
 * and line. A block the page exempts says why just before it, in a comment the reader does not see:
 * `<!-- doc-command: not run, because … -->`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';

/** The pages whose commands are run or checked: read at run time, so a new page or block is covered at once. */
export function commandPages(): string[] {
  const product = readdirSync(path.join(REPO_ROOT, 'docs/product'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/product/${name}`);
  return ['README.md', 'deploy/README.md', 'docs/operations.md', ...product];
}

export interface DocBlock {
  page: string;
  /** The line of the block's first command (1-based). */
  line: number;
  text: string;
  /** The reason the page gives for not running it, when it gives one. */
  exemption?: string;
  inline: boolean;
}

export interface DocCommand {
  page: string;
  line: number;
  /** The command as one line: `\` line ends joined, a trailing comment removed. */
  text: string;
  /** The trailing comment, which may say what answer the command expects. */
  comment: string;
}

const SHELL_FENCE = /^(\s*)(```|~~~)\s*(sh|bash|shell|console)\s*$/;
const EXEMPTION = /<!--\s*doc-command:\s*not run, because ([\s\S]+?)-->\s*$/;

export function blocksOf(page: string, markdown = readFileSync(path.join(REPO_ROOT, page), 'utf8')): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = SHELL_FENCE.exec(lines[index]!);
    if (!open) {
      const fence = /^\s*(```|~~~)/.exec(lines[index]!);
      if (fence) index = closingFence(lines, index, fence[1]!);
      else blocks.push(...inlineCurls(page, lines[index]!, index + 1));
      continue;
    }
    const [, indent = '', marker = '```', language] = open;
    const end = closingFence(lines, index, marker);
    const body = lines.slice(index + 1, end).map((line) => line.slice(Math.min(indent.length, leading(line))));
    const text = (language === 'console' ? body.map((line) => line.replace(/^\$ /, '')) : body).join('\n');
    const before = lines.slice(Math.max(0, index - 3), index).join('\n');
    const exemption = EXEMPTION.exec(before)?.[1]?.replace(/\s+/g, ' ').trim();
    blocks.push({ page, line: index + 2, text, inline: false, ...(exemption ? { exemption } : {}) });
    index = end;
  }
  return blocks;
}

const leading = (line: string) => line.length - line.trimStart().length;

function closingFence(lines: string[], open: number, marker: string): number {
  for (let index = open + 1; index < lines.length; index++) if (lines[index]!.trim() === marker) return index;
  return lines.length;
}

/** `curl …` written as a code span in prose: one command of its own. */
function inlineCurls(page: string, line: string, number: number): DocBlock[] {
  return [...line.matchAll(/`(curl [^`]+)`/g)].map((match) => ({ page, line: number, text: match[1]!, inline: true }));
}

/**
 * A block's commands: a newline ends one unless a `\` continues it or a quote or `$( … )` is still open (a
 * JSON body may span lines). Blank lines and whole-line comments are not commands.
 */
export function commandsOf(block: DocBlock): DocCommand[] {
  const commands: DocCommand[] = [];
  let current = '';
  let startLine = block.line;
  let line = block.line;
  let quote: "'" | '"' | undefined;
  let depth = 0;
  let comment = '';
  const text = block.text;
  const finish = () => {
    if (current.trim())
      commands.push({ page: block.page, line: startLine, text: current.trim(), comment: comment.trim() });
    current = '';
    comment = '';
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote) {
      if (char === '\n') line++;
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') current += text[index++]!;
      current += char;
      continue;
    }
    if (char === '\\' && text[index + 1] === '\n') {
      index++;
      line++;
      current += ' ';
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === '#' && (current === '' || /\s$/.test(current)) && text[index - 1] !== '$') {
      const end = text.indexOf('\n', index);
      comment += text.slice(index + 1, end < 0 ? text.length : end);
      index = (end < 0 ? text.length : end) - 1;
      continue;
    }
    if (char === '\n') {
      line++;
      if (depth === 0) {
        finish();
        startLine = line;
        continue;
      }
    }
    if (current.trim() === '' && char !== '\n' && !/\s/.test(char)) startLine = line;
    current += char;
  }
  finish();
  return commands;
}

/** The simple commands of a command line: split at `&&`, `||`, `;` and `|` outside quotes and `$( … )`. */
export function simpleCommands(command: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  let depth = 0;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      current += char;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    if (char === '(') depth++;
    if (char === ')') depth--;
    const two = command.slice(index, index + 2);
    if (depth === 0 && (two === '&&' || two === '||')) {
      parts.push(current);
      current = '';
      index++;
      continue;
    }
    if (depth === 0 && (char === ';' || (char === '|' && command[index + 1] !== '|'))) {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** The commands inside `$( … )` of a command, which run as well. */
export function substitutions(command: string): string[] {
  const found: string[] = [];
  for (let index = command.indexOf('$('); index >= 0; index = command.indexOf('$(', index + 1)) {
    let depth = 0;
    let quote: string | undefined;
    for (let end = index + 1; end < command.length; end++) {
      const char = command[end]!;
      if (quote) {
        if (char === quote) quote = undefined;
        continue;
      }
      if (char === "'" || char === '"') quote = char;
      else if (char === '(') depth++;
      else if (char === ')' && --depth === 0) {
        found.push(command.slice(index + 2, end));
        break;
      }
    }
  }
  return found;
}

/** Shell words, with '…' and "…" quoting. */
export function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)].map(
    (match) => match[1] ?? match[2] ?? match[3]!,
  );
}

/** `NAME=value` words at the start of a simple command (assignments, or a command's environment). */
export function leadingAssignments(simple: string): { assignments: string[]; rest: string[] } {
  const all = words(simple);
  const index = all.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  return index < 0 ? { assignments: all, rest: [] } : { assignments: all.slice(0, index), rest: all.slice(index) };
}
