import { readFile, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, type DatabaseTarget } from '../../src/db/client.ts';

/** Name the template files the test runner made, for every test process of the PGlite pass. */
const EMPTY_TEMPLATE_ENV = 'PORTAL_TEST_PGLITE_TEMPLATE';
const MIGRATED_TEMPLATE_ENV = 'PORTAL_TEST_PGLITE_MIGRATED_TEMPLATE';

/**
 * A new PGlite database runs initdb in WebAssembly: 2–3 s each time, for every test file; loaded from the dump
 * of an empty one it opens in a third of a second. Every test app's database also ran this release's
 * migrations (a quarter of a CPU-second, 110 apps a run): the dump of a migrated database holds them, and
 * opening it checks the journal and finds nothing to apply, as a server does on a database `portal migrate`
 * took to this release. The migrations themselves are tested from the empty one (`{ empty: true }`).
 * The runner writes both dumps once; the environment variables to hand to the test processes are returned.
 */
export async function writePgliteTemplate(file: string): Promise<Record<string, string>> {
  const empty = await PGlite.create();
  let emptyDump: Blob;
  try {
    // PostgreSQL's 128 MB of shared buffers are set up at every start: a third of what opening a test database
    // costs. A test database holds a few megabytes; the server's own embedded database keeps the default.
    await empty.exec(`alter system set shared_buffers = '16MB'`);
    emptyDump = await empty.dumpDataDir('none');
    await writeFile(file, Buffer.from(await emptyDump.arrayBuffer()));
  } finally {
    await empty.close();
  }
  const migratedFile = file.replace(/(\.tar)?$/, '-migrated.tar');
  const migrated = await PGlite.create({ loadDataDir: emptyDump, extensions: { pg_trgm } });
  try {
    await migrate(drizzle(migrated), { migrationsFolder });
    const dump = await migrated.dumpDataDir('none');
    await writeFile(migratedFile, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await migrated.close();
  }
  return { [EMPTY_TEMPLATE_ENV]: file, [MIGRATED_TEMPLATE_ENV]: migratedFile };
}

/**
 * An in-memory PGlite database for a test, from the runner's template when there is one, else made afresh: at
 * this release's schema, or `empty` (no migration applied) for a test that migrates it itself.
 */
export async function testPgliteTarget({ empty = false } = {}): Promise<DatabaseTarget> {
  const file = process.env[empty ? EMPTY_TEMPLATE_ENV : MIGRATED_TEMPLATE_ENV];
  if (!file) return { kind: 'pglite' };
  return { kind: 'pglite', loadDataDir: await templateBlob(file) };
}

/** A dump is 40 MB: read once per process (a Blob cannot change), not once per test app. */
const templateBlobs = new Map<string, Promise<Blob>>();
function templateBlob(file: string): Promise<Blob> {
  let blob = templateBlobs.get(file);
  if (!blob) {
    blob = readFile(file).then((bytes) => new Blob([bytes]));
    templateBlobs.set(file, blob);
  }
  return blob;
}
