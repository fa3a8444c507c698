import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
const UNIQUE_UID_MIGRATION = '0007_account_cleanups_unique_uid';

interface Journal {
  entries: { tag: string }[];
}

/** A copy of the migrations that stops before `tag`, so a test can set up the data a migration meets. */
async function migrationsBefore(tag: string, dir: string) {
  await cp(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as Journal;
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  assert.ok(index > 0, `${tag} is in the journal`);
  await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
}

describe('the migration that gives each sign-in account one row', () => {
  let dir: string;
  let client: PGlite;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-migrations-'));
    const target = await testPgliteTarget();
    client = await PGlite.create({
      ...(target.kind === 'pglite' && target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
      extensions: { pg_trgm },
    });
  });
  after(async () => {
    await client?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('unbinds rows that shared an account, says so in the audit log, and refuses a second row for one uid', async () => {
    const db = drizzle(client);
    await migrationsBefore(UNIQUE_UID_MIGRATION, path.join(dir, 'before'));
    await migrate(db, { migrationsFolder: path.join(dir, 'before') });
    await client.exec(`insert into users (email, firebase_uid) values
      ('one@example.com', 'portal-shared'), ('two@example.com', 'portal-shared'), ('own@example.com', 'portal-own')`);

    await migrate(db, { migrationsFolder });

    const rows = await client.query<{ email: string; firebase_uid: string | null }>(
      'select email, firebase_uid from users order by email',
    );
    assert.deepEqual(rows.rows, [
      { email: 'one@example.com', firebase_uid: null },
      { email: 'own@example.com', firebase_uid: 'portal-own' },
      { email: 'two@example.com', firebase_uid: null },
    ]);
    const audit = await client.query<{ target: string; detail: string }>(
      `select target, detail from audit_log where action = 'users.unbind-shared-account' order by target`,
    );
    assert.deepEqual(
      audit.rows.map((row) => row.target),
      ['one@example.com', 'two@example.com'],
    );
    assert.match(audit.rows[0]?.detail ?? '', /uid portal-shared/);
    await assert.rejects(
      client.exec(`insert into users (email, firebase_uid) values ('three@example.com', 'portal-own')`),
      /users_firebase_uid_idx/,
    );
    // Rows without an account stay allowed side by side.
    await client.exec(`insert into users (email) values ('four@example.com'), ('five@example.com')`);
  });
});
