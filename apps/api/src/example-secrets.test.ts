import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { exampleTokenOrigin } from './example-secrets.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** Where the repository shows tokens to people: what they read, copy and run. */
const SHOWN_IN = ['README.md', '.env.example', 'docs', 'deploy', 'scripts'];
/** Config takes no shorter token (config.ts), so a shorter literal cannot be a configured one. */
const SHORTEST_TOKEN = 32;
const VALUE = `[A-Za-z0-9._~+/=-]{${SHORTEST_TOKEN},}`;
/**
 * A token-like literal: a value after "Bearer", a value given to a name that says token or secret
 * (`SCIM_TOKEN=…`, `INGEST_TOKEN: …`, `const TOKEN = '…'`, `scimToken = process.env.X ?? '…'`), or any word
 * that calls itself a token and has the shape of one: hyphenated, with digits (`demo-scim-token-…-0123456789`).
 */
const WORD_NAMING_A_TOKEN = new RegExp(`(?<![\\w-])([\\w.~+/]*-[\\w.~+/=-]*token[\\w.~+/=-]*)`, 'gi');
const TOKEN_LIKE = [
  new RegExp(`Bearer\\s+['"\`]?(${VALUE})`, 'g'),
  new RegExp(`\\w*(?:token|secret)\\w*['"]?\\s*[:=][^'"\`\\n]*?['"\`]?(${VALUE})`, 'gi'),
  WORD_NAMING_A_TOKEN,
];

function filesUnder(relative: string): string[] {
  const absolute = path.join(repoRoot, relative);
  if (!statSync(absolute).isDirectory()) return [relative];
  return readdirSync(absolute).flatMap((name) => filesUnder(path.join(relative, name)));
}

/** Every token-like literal of the files people read, with where it was seen first. */
function shownTokens(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of SHOWN_IN.flatMap(filesUnder)) {
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    if (text.includes('\0')) continue;
    for (const pattern of TOKEN_LIKE)
      for (const match of text.matchAll(pattern)) {
        const value = match[1]!;
        // A placeholder or a name, not a value: `$TOKEN`, `${SCIM_TOKEN}`, `<token>`, `SCIM_TOKEN_PREVIOUS`.
        if (value.length < SHORTEST_TOKEN || /^[A-Z0-9_]+$/.test(value) || /^[a-z0-9_]+$/.test(value)) continue;
        // A file name or a heading's anchor that mentions tokens (`0089-…-token-….md`, `#changing-…-token-scim`).
        if (pattern === WORD_NAMING_A_TOKEN && (value.includes('.') || !/\d/.test(value))) continue;
        if (!found.has(value)) found.set(value, file);
      }
  }
  return found;
}

describe('tokens the repository shows', () => {
  it('finds the ones it knows are there (so the collection below cannot silently find nothing)', () => {
    const shown = shownTokens();
    for (const known of [
      'demo-scim-token-for-npm-start-only-0123456789',
      'example-scim-token-of-at-least-32-characters',
      'bench-scim-token-of-at-least-32-characters',
    ])
      assert.ok(shown.has(known), `${known} is collected`);
  });

  it('are each refused in production: a token shown in README, docs, deploy or scripts is listed', () => {
    const missing = [...shownTokens()]
      .filter(([value]) => exampleTokenOrigin(value, true) === undefined)
      .map(([value, file]) => `${value} (${file})`);
    assert.deepEqual(
      missing,
      [],
      'add these to EXAMPLE_TOKENS in example-secrets.ts, or generate the token at run time instead of printing it',
    );
  });

  it('leaves the demo tokens to npm start and the benchmarks outside production, never the example Secret', () => {
    assert.equal(exampleTokenOrigin('demo-scim-token-for-npm-start-only-0123456789', false), undefined);
    assert.equal(exampleTokenOrigin('demo-scim-token-for-npm-start-only-0123456789', true), 'README.md');
    assert.equal(
      exampleTokenOrigin('example-scim-token-of-at-least-32-characters', false),
      'deploy/kubernetes/secret.example.yaml',
    );
    assert.equal(exampleTokenOrigin(undefined, true), undefined);
  });
});
