import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseUsersArgs } from './users.ts';

const REPO = path.resolve(import.meta.dirname, '../../../..');
/** The pages an operator copies commands from. */
const PAGES = [
  'README.md',
  'deploy/README.md',
  'docs/operations.md',
  ...readdirSync(path.join(REPO, 'docs/product'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/product/${name}`),
];

/** A placeholder as a value the command takes: an address where it names one, else a person's name. */
const filled = (placeholder: string) => (/email|address/i.test(placeholder) ? 'someone@example.com' : 'Jane Doe');

/**
 * A documented `users …` call as the words a shell would hand the CLI: `[optional]` parts included,
 * `--on|--off` as its first choice, placeholders filled.
 */
function argsOf(call: string): string[] {
  const line = call
    .replace(/[[\]]/g, '')
    .replace(/(--[\w-]+)\|--[\w-]+/g, '$1')
    .replace(/<([^>]+)>/g, (_, placeholder: string) => `"${filled(placeholder)}"`);
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

/**
 * Every `users …` call of a page: after `npm run portal --` or `cli.js`, or an inline code span of its own that
 * names an address (a bare `users add` names the command, it is not one to run).
 */
function usersCalls(text: string): string[] {
  const prefixed = [...text.matchAll(/(?:npm run portal --|cli\.js) users ([^`#\n]*)/g)].map((match) => match[1]!);
  const inline = [...text.matchAll(/`users ([^`]*[@<][^`]*)`/g)].map((match) => match[1]!);
  return [...prefixed, ...inline].map((call) => call.trim()).filter((call) => !call.includes('…'));
}

describe('the users commands the docs show', () => {
  it('are each accepted by the CLI as written (the first administrator among them)', () => {
    const refused: string[] = [];
    let count = 0;
    for (const page of PAGES) {
      for (const call of usersCalls(readFileSync(path.join(REPO, page), 'utf8'))) {
        count += 1;
        const parsed = parseUsersArgs(argsOf(call));
        if ('error' in parsed) refused.push(`${page}: users ${call} → ${parsed.error}`);
      }
    }
    assert.ok(count >= 15, `only ${count} users commands found in the docs`);
    assert.deepEqual(refused, []);
  });

  it('show the first administrator added with the name the audit log records', () => {
    for (const page of ['README.md', 'deploy/README.md', 'docs/operations.md']) {
      const adds = usersCalls(readFileSync(path.join(REPO, page), 'utf8')).filter((call) =>
        /^add .*--admin/.test(call),
      );
      assert.ok(adds.length > 0, `${page} shows how to add the first administrator`);
      for (const add of adds) assert.match(add, /--operator/, `${page}: users ${add}`);
    }
  });
});
