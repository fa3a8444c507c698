import { readFile, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { DatabaseTarget } from '../../src/db/client.ts';

/** Names the template file the test runner made, for every test process of the PGlite pass. */
const TEMPLATE_ENV = 'PORTAL_TEST_PGLITE_TEMPLATE';

/**
 * A new PGlite database runs initdb in WebAssembly: 2–3 s each time, for every test file. Loaded from the
 * dump of an empty one it opens in half a second, and the migrations run on it as on any new database.
 * The runner writes the dump once per pass; the environment variable to hand to the test processes is returned.
 */
export async function writePgliteTemplate(file: string): Promise<Record<string, string>> {
  const database = await PGlite.create();
  try {
    const dump = await database.dumpDataDir('none');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await database.close();
  }
  return { [TEMPLATE_ENV]: file };
}

/** An in-memory PGlite database for a test: from the runner's template when there is one, else made afresh. */
export async function testPgliteTarget(): Promise<DatabaseTarget> {
  const file = process.env[TEMPLATE_ENV];
  if (!file) return { kind: 'pglite' };
  return { kind: 'pglite', loadDataDir: new Blob([await readFile(file)]) };
}
