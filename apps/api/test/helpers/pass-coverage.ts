/**
 * The check that lets the PostgreSQL and object-store passes run only some files (test/run.ts): whatever the
 * suite asked of PGlite, PostgreSQL must have been asked too, and whatever it asked of the invoice folder, the
 * bucket too. Each test process writes a ledger of what it met (helpers/backend-ledger.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The folder the runner hands to every test process for its ledger. */
export const LEDGER_DIR_ENV = 'API_TEST_LEDGER_DIR';

/** One process's ledger: each thing met (`pglite sql …`, `store folder put`) with the test files it was met in. */
export type Ledger = Record<string, string[]>;

/** Where set-up outside any test (a file's `before` hooks: migrations, its first rows) is noted. */
export const OUTSIDE_A_TEST = '(set-up outside a test)';

/**
 * The same statement for every size of list: drizzle numbers its parameters, so `in ($1, $2)` and a bulk
 * insert's `values ($1, $2), ($3, $4)` would otherwise be new statements for each length.
 */
export function normaliseStatement(text: string): string {
  return (
    text
      .replace(/\s+/g, ' ')
      .trim()
      // drizzle starts a transaction with settings as `begin <settings>` on node-postgres, and on PGlite (whose
      // own transaction sends the begin) as `set transaction <settings>`: one statement in two spellings.
      .replace(/^set transaction /i, 'begin ')
      .replace(/\$\d+/g, '$')
      .replace(/\$(?:, \$)*/g, '$…')
      .replace(/(\([^()]*\))(?:, \1)*/g, '$1…')
  );
}

// Keyed by engine, not by pass: some files open PGlite in every pass.
/** Each key met, with every file it was met in, over all the ledgers in `dir`. */
export async function readLedgers(dir: string): Promise<Map<string, Set<string>>> {
  const met = new Map<string, Set<string>>();
  for (const name of await readdir(dir)) {
    const ledger = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as Ledger;
    for (const [key, files] of Object.entries(ledger)) {
      const known = met.get(key) ?? new Set<string>();
      for (const file of files) known.add(file);
      met.set(key, known);
    }
  }
  return met;
}

/**
 * Files that open a PGlite database of their own in every pass, the PostgreSQL pass too: what only they ask of
 * PGlite was never asked of PostgreSQL, so it is not asked for here.
 */
export const PGLITE_OF_THEIR_OWN = new Set([
  // The repository and the counters' stores over an embedded database, without an app.
  'src/users/repository.test.ts',
  'src/rate-limits/rate-limit-store.test.ts',
  'src/rate-limits/batched-limit.test.ts',
  'src/invoices/recent-invoices.test.ts',
  'src/passkeys/passkey-ceremonies.test.ts',
  // Migrations taken step by step from a copy of the folder, on an embedded database made for each test.
  'src/db/migrations.test.ts',
]);

/**
 * A file that ran on PostgreSQL itself (`.databases`, `.postgres`) sent there all it sends to the pass's
 * database: what it met only on PGlite it asked of an embedded database of its own (a restore target, say).
 */
const ranOnPostgresOrOwnPglite = (file: string) =>
  PGLITE_OF_THEIR_OWN.has(file) || /\.(databases|postgres)\./.test(path.basename(file));

/** The pairs compared: a key met with the first prefix must have been met with the second. */
const COMPARISONS = {
  postgres: { from: 'pglite sql ', to: 'postgres sql ', what: 'statement', where: 'PostgreSQL', tag: '.databases' },
  objectStore: {
    from: 'store folder ',
    to: 'store s3 ',
    what: 'store call',
    where: 'the object store',
    tag: '.stores',
  },
};

/**
 * The lines to print for each statement or store call met on PGlite (the folder) and never on PostgreSQL (the
 * bucket), with the files that met it: one of them needs the tag that runs it there. Empty when all were met;
 * a comparison whose passes did not both run is left out.
 */
export async function checkPassesMeetAll(
  dir: string,
  compare: Record<keyof typeof COMPARISONS, boolean>,
): Promise<string[]> {
  const met = await readLedgers(dir);
  const lines: string[] = [];
  for (const [name, { from, to, what, where, tag }] of Object.entries(COMPARISONS)) {
    if (!compare[name as keyof typeof COMPARISONS]) continue;
    for (const [key, files] of met) {
      if (!key.startsWith(from) || met.has(to + key.slice(from.length))) continue;
      const named = [...files].filter((file) => file !== OUTSIDE_A_TEST);
      if (name === 'postgres' && [...files].every(ranOnPostgresOrOwnPglite)) continue;
      lines.push(
        `# UNMET: a ${what} never met on ${where}, met by ${named.length > 0 ? named.slice(0, 4).join(', ') : OUTSIDE_A_TEST} ` +
          `(tag one of them ${tag}, or add a test of it that is): ${key.slice(from.length).slice(0, 300)}`,
      );
    }
  }
  return lines;
}
