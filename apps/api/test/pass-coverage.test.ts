import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkPassesMeetAll, normaliseStatement, OUTSIDE_A_TEST } from './helpers/pass-coverage.ts';

describe('the check that the PostgreSQL and object-store passes meet what the PGlite pass met', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(path.join(os.tmpdir(), 'portal-ledgers-'))));
  after(() => rm(dir, { recursive: true, force: true }));

  it('counts a statement once for every length of its lists', () => {
    assert.equal(
      normaliseStatement(
        'insert into "users" ("email", "admin")\n values ($1, $2), ($3, $4) where "id" in ($5, $6, $7)',
      ),
      normaliseStatement('insert into "users" ("email", "admin") values ($1, $2) where "id" in ($3)'),
    );
    assert.notEqual(normaliseStatement('select 1 from "users"'), normaliseStatement('select 1 from "invoices"'));
    assert.equal(
      normaliseStatement('set transaction isolation level repeatable read read only'),
      normaliseStatement('begin isolation level repeatable read read only'),
    );
  });

  it('names a statement or store call met only on PGlite or the folder, with the files that met it', async () => {
    await writeFile(
      path.join(dir, '1.json'),
      JSON.stringify({
        'pglite sql select $': ['a.test.ts'],
        'pglite sql select $ for update': ['b.test.ts', OUTSIDE_A_TEST],
        'store folder put': ['c.stores.test.ts'],
        'store folder list': ['d.test.ts'],
        'pglite sql select $ from "rate_limits"': ['src/rate-limits/rate-limit-store.test.ts'],
        'pglite sql select sha256 from invoices': ['test/backup-incremental.stores.databases.test.ts'],
      }),
    );
    await writeFile(
      path.join(dir, '2.json'),
      JSON.stringify({ 'postgres sql select $': ['a.databases.test.ts'], 'store s3 put': ['c.stores.test.ts'] }),
    );
    const unmet = await checkPassesMeetAll(dir, { postgres: true, objectStore: true });
    assert.equal(unmet.length, 2);
    assert.match(unmet[0]!, /never met on PostgreSQL, met by b\.test\.ts .*\.databases.*: select \$ for update$/);
    assert.match(unmet[1]!, /never met on the object store, met by d\.test\.ts .*\.stores.*: list$/);
    // What only a file with a PGlite of its own asked was never asked of PostgreSQL: not asked for here.
    // Nor what a file that ran on PostgreSQL itself asked only of an embedded database (a restore target).
    assert.ok(unmet.every((line) => !line.includes('rate_limits') && !line.includes('sha256')));
    // A comparison whose two passes did not both run says nothing.
    assert.deepEqual(await checkPassesMeetAll(dir, { postgres: false, objectStore: false }), []);
  });
});
