import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrationsFolderWith, releaseJournal } from '../../test/helpers/migration-folders.ts';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';
import { migrateDatabase, openDatabase, SchemaBehindError, schemaLevel, type DatabaseHandle } from './client.ts';

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

/** An empty PGlite database taken to the level `folder`'s journal describes, as drizzle's migrator does it. */
async function databaseMigratedWith(folder: string): Promise<DatabaseHandle> {
  const handle = await openDatabase(await testPgliteTarget({ empty: true }), { migrate: false, allowBehind: true });
  await migratePglite(handle.db as never, { migrationsFolder: folder });
  return handle;
}

async function hasIndex(handle: DatabaseHandle, name: string) {
  const result = (await handle.db.execute(sql`select 1 from pg_indexes where indexname = ${name}`)) as unknown as {
    rows: unknown[];
  };
  return result.rows.length === 1;
}

describe('migrations', () => {
  const folders: string[] = [];
  after(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));
  const folder = async (entries: Parameters<typeof migrationsFolderWith>[0]) => {
    const made = await migrationsFolderWith(entries);
    folders.push(made);
    return made;
  };

  it('lists every migration with a `when` above the one before: drizzle applies only those above the last applied', async () => {
    const journal = await releaseJournal();
    for (const [index, entry] of journal.entries()) {
      if (index > 0) {
        const before = journal[index - 1]!;
        assert.ok(entry.when > before.when, `${entry.tag} must come after ${before.tag}`);
        // Numbers only grow; one may be missing while branches that were handed numbers are merged one by one.
        assert.ok(Number(entry.tag.slice(0, 4)) > Number(before.tag.slice(0, 4)), `${entry.tag} after ${before.tag}`);
      }
      assert.match(entry.tag, /^\d{4}_[a-z0-9_]+$/);
    }
  });

  it('gives users_created_at_idx to a database that was migrated to 0004 before 0005 existed', async () => {
    const journal = await releaseJournal();
    const before0005 = journal.slice(
      0,
      journal.findIndex((entry) => entry.tag.startsWith('0005_')),
    );
    const handle = await databaseMigratedWith(await folder(before0005));
    try {
      assert.equal(await hasIndex(handle, 'users_created_at_idx'), false);
      await migratePglite(handle.db as never, { migrationsFolder: await folder(journal) });
      assert.equal(await hasIndex(handle, 'users_created_at_idx'), true);
    } finally {
      await handle.close();
    }
  });

  it('applies 0005 again as a no-op on a database that got it under its first, smaller `when`', async () => {
    const journal = await releaseJournal();
    const asFirstShipped = journal.slice(0, 6).map((entry) =>
      entry.tag.startsWith('0005_')
        ? {
            ...entry,
            when: 1795388161411,
            sql: 'CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","email");',
          }
        : entry,
    );
    const handle = await databaseMigratedWith(await folder(asFirstShipped));
    try {
      assert.equal(await hasIndex(handle, 'users_created_at_idx'), true);
      await migratePglite(handle.db as never, { migrationsFolder: await folder(journal) });
      const level = await schemaLevel(handle.db);
      assert.equal(level.lastWhen, level.knownLastWhen);
    } finally {
      await handle.close();
    }
  });

  it('0017 backfills the parties: each distinct seller and buyer name once, every invoice pointed at its own', async () => {
    const journal = await releaseJournal();
    const before0017 = journal.slice(
      0,
      journal.findIndex((entry) => entry.tag.startsWith('0017_')),
    );
    const handle = await databaseMigratedWith(await folder(before0017));
    const rows = async <T>(query: ReturnType<typeof sql>) =>
      ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
    try {
      await handle.db.execute(sql`insert into invoices (parcel_code, sha256, size, uploaded_by, seller_name, buyer_name)
        values ('A', 'a', 1, 't', 'Nordfracht AG', 'Weber Bau 4242 GmbH'),
               ('B', 'b', 1, 't', 'Nordfracht AG', 'Koch Pharma GmbH'),
               ('C', 'c', 1, 't', 'NORDFRACHT AG', 'Weber Bau 4242 GmbH'),
               ('D', 'd', 1, 't', null, 'Koch Pharma GmbH'),
               ('E', 'e', 1, 't', null, null)`);
      assert.equal(await hasIndex(handle, 'invoices_buyer_name_trgm_idx'), true);
      await migratePglite(handle.db as never, { migrationsFolder: await folder(journal) });

      const named = await rows<{ parcel_code: string; seller: string | null; buyer: string | null }>(sql`
        select i.parcel_code, s.name as seller, b.name as buyer from invoices i
        left join invoice_sellers s on s.id = i.seller_id left join invoice_buyers b on b.id = i.buyer_id
        order by i.parcel_code`);
      assert.deepEqual(named, [
        { parcel_code: 'A', seller: 'Nordfracht AG', buyer: 'Weber Bau 4242 GmbH' },
        { parcel_code: 'B', seller: 'Nordfracht AG', buyer: 'Koch Pharma GmbH' },
        { parcel_code: 'C', seller: 'NORDFRACHT AG', buyer: 'Weber Bau 4242 GmbH' },
        { parcel_code: 'D', seller: null, buyer: 'Koch Pharma GmbH' },
        { parcel_code: 'E', seller: null, buyer: null },
      ]);
      const counts = await rows<{ sellers: number; buyers: number }>(
        sql`select (select count(*)::int from invoice_sellers) as sellers, (select count(*)::int from invoice_buyers) as buyers`,
      );
      assert.deepEqual(counts, [{ sellers: 2, buyers: 2 }]);
      // The invoice-wide trigram indexes are gone (ingestion no longer pays for them); the id indexes serve.
      assert.equal(await hasIndex(handle, 'invoices_seller_name_trgm_idx'), false);
      assert.equal(await hasIndex(handle, 'invoices_buyer_name_trgm_idx'), false);
      assert.equal(await hasIndex(handle, 'invoices_buyer_id_idx'), true);
      assert.equal(await hasIndex(handle, 'invoice_buyers_name_trgm_idx'), true);
      // New names after the backfill take the next ids, not one of the backfilled ones.
      await handle.db.execute(
        sql`insert into invoices (parcel_code, sha256, size, uploaded_by, buyer_name) values ('F', 'f', 1, 't', 'New Buyer')`,
      );
      const [fresh] = await rows<{ buyer_id: number }>(sql`select buyer_id from invoices where parcel_code = 'F'`);
      assert.equal(fresh?.buyer_id, 3);
    } finally {
      await handle.close();
    }
  });

  it('with MIGRATE_ON_START off, refuses a schema behind this release; `portal migrate` brings it up to date', async () => {
    const journal = await releaseJournal();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-migrate-'));
    folders.push(dataDir);
    const target = { kind: 'pglite', dataDir: path.join(dataDir, 'db') } as const;
    const previous = await openDatabase(target, { migrate: false, allowBehind: true });
    await migratePglite(previous.db as never, { migrationsFolder: await folder(journal.slice(0, -1)) });
    await previous.close();

    await assert.rejects(openDatabase(target, { migrate: false }), (error: Error) => {
      assert.ok(error instanceof SchemaBehindError);
      assert.match(error.message, new RegExp(`${journal.length - 1} of its ${journal.length} migrations applied`));
      assert.match(error.message, /npm run portal -- migrate/);
      return true;
    });
    const { before, after: migrated } = await migrateDatabase(target);
    assert.deepEqual([before.applied, migrated.applied], [journal.length - 1, journal.length]);
    const current = await openDatabase(target, { migrate: false });
    await current.close();
  });
});

describe('the migration that gives each sign-in account one row', () => {
  let dir: string;
  let client: PGlite;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-migrations-'));
    const target = await testPgliteTarget({ empty: true });
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
    await migratePglite(db, { migrationsFolder: path.join(dir, 'before') });
    await client.exec(`insert into users (email, firebase_uid) values
      ('one@example.com', 'portal-shared'), ('two@example.com', 'portal-shared'), ('own@example.com', 'portal-own')`);

    await migratePglite(db, { migrationsFolder });

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
