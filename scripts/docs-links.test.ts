// The README and the docs are read as one set of pages: a moved section or a renamed file must not leave a
// link that leads nowhere, the lists of error codes the pages repeat must stay the contract's list, and the
// README's layout must name the folders that are there.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '@portal/contract/error-codes';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The pages people read: the README, everything under docs/, the operator's guide and the changelog. */
function pages(): string[] {
  const found = ['README.md', 'CHANGELOG.md'].map((file) => path.join(ROOT, file));
  for (const folder of ['docs', 'deploy']) found.push(...markdownUnder(path.join(ROOT, folder)));
  return found;
}

function markdownUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join(folder, file));
}

/** The text outside fenced code blocks, where a heading is a heading. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text outside fenced code blocks and code spans, where a link is a link. */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '``');
}

/** Inline links and images `[text](target "title")` and reference definitions `[name]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? '');
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((match) => match[1] ?? '');
  return [...inline, ...references];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const text = (heading ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

test('every relative link in the README and the docs leads to a file that exists, and to a heading in it', () => {
  const broken: string[] = [];
  const checked = pages();
  assert.ok(checked.length > 50, `expected the README, the product pages and the decisions; found ${checked.length}`);
  for (const page of checked) {
    const markdown = readFileSync(page, 'utf8');
    for (const target of linkTargets(markdown)) {
      if (isExternal(target)) continue;
      const [pathPart = '', anchor] = target.split('#', 2);
      const file = pathPart === '' ? page : path.resolve(path.dirname(page), decodeURIComponent(pathPart));
      const where = `${path.relative(ROOT, page)}: ${target}`;
      if (!existsSync(file)) {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor && file.endsWith('.md') && statSync(file).isFile()) {
        if (!anchors(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test('a page that lists the error codes lists exactly the contract’s codes', () => {
  const lists: string[] = [];
  for (const page of pages()) {
    const markdown = readFileSync(page, 'utf8');
    // A list names the table it is a copy of; three or more code spans in a row separated by commas.
    for (const paragraph of markdown.split(/\n\s*\n/).filter((text) => text.includes('error-codes.ts'))) {
      for (const [list] of paragraph.matchAll(/`[a-z-]+`(?:,\s*`[a-z-]+`){2,}/g)) {
        const codes = [...list.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]);
        assert.deepEqual(
          [...codes].sort(),
          [...ERROR_CODES].sort(),
          `${path.relative(ROOT, page)} lists other codes than packages/contract/src/error-codes.ts`,
        );
        lists.push(page);
      }
    }
  }
  assert.ok(lists.length > 0, 'no page lists the error codes any more: drop this test, or the list is unreadable');
});

/**
 * The paths the README's layout block names, each with the folder it is under: a name at the start of a line
 * is a path from the repository root, and one indented by two more spaces is a path inside the name above it.
 * Continuation lines are indented further than any name and are not read.
 */
function layoutPaths(readme: string): string[] {
  const block = /^## Layout\n+```\n([\s\S]*?)^```/m.exec(readme)?.[1];
  assert.ok(block, 'README.md has no "## Layout" section with a code block');
  const parents: string[] = [];
  const named: string[] = [];
  for (const line of block.split('\n')) {
    const match = /^( *)(\S+)/.exec(line);
    const depth = (match?.[1]?.length ?? 0) / 2;
    if (!match?.[2] || !Number.isInteger(depth) || depth > parents.length) continue;
    const parent = parents[depth - 1];
    const name = (parent === undefined ? match[2] : path.posix.join(parent, match[2])).replace(/\/$/, '');
    named.push(name);
    parents.length = depth;
    parents.push(name);
  }
  return named;
}

test('the README’s layout names folders and files that exist, and every folder of the API’s source', () => {
  const named = layoutPaths(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  assert.deepEqual(
    named.filter((name) => !existsSync(path.join(ROOT, name))),
    [],
    'the layout names what is not there',
  );
  const namedSet = new Set(named);
  const folders = (under: string) =>
    readdirSync(path.join(ROOT, under), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
      .map((entry) => path.posix.join(under, entry.name));
  const apiFolders = folders('apps/api/src');
  assert.ok(apiFolders.length > 10, `expected the API's domain folders; found ${apiFolders.join(', ')}`);
  const topFolders = folders('.').filter((folder) => folder !== 'apps' && folder !== 'packages' && folder !== 'tools');
  const missing = [...apiFolders, ...topFolders, ...folders('apps'), ...folders('packages')].filter(
    (folder) => !namedSet.has(folder),
  );
  assert.deepEqual(missing, [], 'the layout misses these folders');
});

test('the anchors follow GitHub’s headings', () => {
  assert.deepEqual(
    [...anchors('# One host (compose)\n## Upgrade: migrate, roll, verify\n## `npm test`\n## Try it\n## Try it\n')],
    ['one-host-compose', 'upgrade-migrate-roll-verify', 'npm-test', 'try-it', 'try-it-1'],
  );
  assert.deepEqual(linkTargets('[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n[d]: w.md#top\n'), ['x.md', 'w.md#top']);
  assert.deepEqual(
    layoutPaths('## Layout\n\n```\napps/api   API\n  src/x.ts   x\n           more\n    y/   y\nz   z\n```\n'),
    ['apps/api', 'apps/api/src/x.ts', 'apps/api/src/x.ts/y', 'z'],
  );
});
