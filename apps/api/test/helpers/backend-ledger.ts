/**
 * What a test process asked of the database and the invoice store, for the runner's check that the PostgreSQL
 * and object-store passes, which run only some files, still meet everything the PGlite pass met (test/run.ts).
 *
 * Loaded into every test process with `--import` when the runner names a folder in `API_TEST_LEDGER_DIR`: every
 * statement drizzle prepares (on PGlite or PostgreSQL, migrations and transactions included) is noted in a
 * normalised form, with the test file that was running; the invoice store's calls are noted on every store the
 * test helpers open (`withStoreCallsNoted`). At exit the process writes one JSON file there.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BlobStore } from '../../src/blob-store/blob-store.ts';
import { LEDGER_DIR_ENV, normaliseStatement, OUTSIDE_A_TEST, type Ledger } from './pass-coverage.ts';

const ledgerDir = process.env[LEDGER_DIR_ENV];
const entries = new Map<string, Set<string>>();
let currentFile = OUTSIDE_A_TEST;

/** This process's test files, as the runner named them. */
const testFiles = process.argv.filter((arg) => arg.endsWith('.test.ts'));

/**
 * The file whose code asked, outside a test: a file's own `before` hook (its first rows) shows in the stack,
 * awaited calls included; the shared helpers' hooks (test-app.ts) name no file.
 */
function fileInStack(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return testFiles.find((file) => stack.includes(path.resolve(file))) ?? OUTSIDE_A_TEST;
}

function note(key: string) {
  let files = entries.get(key);
  if (!files) entries.set(key, (files = new Set()));
  files.add(currentFile === OUTSIDE_A_TEST ? fileInStack() : currentFile);
}

/** Notes each call of the store's own methods, on the folder or the bucket; returns the store itself. */
export function withStoreCallsNoted<Store extends BlobStore>(store: Store): Store {
  if (!ledgerDir) return store;
  const methods = ['put', 'open', 'list', 'delete', 'accelRedirectPath', 'removeStaleTemporaryFiles'] as const;
  for (const method of methods) {
    const call = store[method] as (...args: unknown[]) => unknown;
    (store as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      note(`store ${store.kind} ${method}`);
      return call.apply(store, args);
    };
  }
  return store;
}

if (ledgerDir) {
  // Loaded here, not at the top: processes a test starts with its arguments inherit the `--import`, and have no
  // ledger to keep (the invoice readers start from arguments of their own: reader-pool.ts).
  const [{ beforeEach }, { PgliteSession }, { NodePgSession }] = await Promise.all([
    import('node:test'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/node-postgres'),
  ]);
  // With --test-isolation=none every file's `before` hooks run first, then each file's tests in turn.
  beforeEach((context) => {
    currentFile = context.filePath ? path.relative(process.cwd(), context.filePath) : OUTSIDE_A_TEST;
  });
  const sessions = [
    ['pglite', PgliteSession.prototype],
    ['postgres', NodePgSession.prototype],
  ] as unknown as [string, { prepareQuery: (query: { sql: string }, ...rest: unknown[]) => unknown }][];
  for (const [engine, session] of sessions) {
    const prepare = session.prepareQuery;
    session.prepareQuery = function (this: unknown, query, ...rest) {
      note(`${engine} sql ${normaliseStatement(query.sql)}`);
      return prepare.call(this, query, ...rest);
    };
  }
  process.on('exit', () => {
    const ledger: Ledger = Object.fromEntries([...entries].map(([key, files]) => [key, [...files].sort()]));
    writeFileSync(path.join(ledgerDir, `${process.pid}.json`), JSON.stringify(ledger));
  });
}
