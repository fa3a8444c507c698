/**
 * Expand, then contract (docs/decisions/0038): an instance keeps serving while the next migration is applied
 * under it, as `portal migrate` would apply it before the next release's instances start. The next migration
 * here is one of the kind the decision allows (new nullable and defaulted columns, a new table, an index);
 * the last step shows that one it forbids (a rename) would break the running instance, so the test can fail.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { freshDatabaseBeside } from '@portal/dev-stack';
import { migrateDatabase, openDatabase, schemaLevel } from '../src/db/client.ts';
import { fakePdf, sha256Of } from './helpers/fixtures.ts';
import { migrationsFolderWith, releaseJournal } from './helpers/migration-folders.ts';
import { useTestApp } from './helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
// On PostgreSQL a database of its own: the suite's shared one must keep this release's schema.
const databaseUrl = process.env.DATABASE_URL
  ? await freshDatabaseBeside(process.env.DATABASE_URL, 'schema_expand')
  : '';

const EXPAND = `ALTER TABLE "invoices" ADD COLUMN "note" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "display_name" text NOT NULL DEFAULT '';
--> statement-breakpoint
CREATE TABLE "next_feature" ("id" bigserial PRIMARY KEY, "parcel_code" text NOT NULL);
--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","id");`;

const RENAME = `ALTER TABLE "invoices" RENAME COLUMN "sha256" TO "content_sha256";`;

describe('the next migration applied under a running instance', () => {
  const t = useTestApp({ env: { INGEST_TOKEN, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) } });
  const folders: string[] = [];
  after(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  /** Applies `steps` after this release's migrations: on PostgreSQL from another connection, as `portal migrate` does. */
  async function applyNext(steps: { tag: string; sql: string }[]) {
    const journal = await releaseJournal();
    const last = journal.at(-1)!.when;
    const folder = await migrationsFolderWith([
      ...journal,
      ...steps.map((step, index) => ({ ...step, when: last + 1000 * (index + 1) })),
    ]);
    folders.push(folder);
    if (databaseUrl) await migrateDatabase({ kind: 'postgres', url: databaseUrl }, folder);
    // PGlite belongs to this process: the migration runs on the instance's own connection.
    else await migratePglite(t.database.db as never, { migrationsFolder: folder });
  }

  it('keeps serving downloads, uploads, the user list and the audit log after an expand step', async () => {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    const upload = (code: string, label: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/invoices/${code}`,
        payload: fakePdf(label),
        headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
      });
    const download = (code: string) =>
      t.app.inject({ url: `/api/invoice?parcelCode=${code}`, headers: t.bearer(user.idToken) });
    const asAdmin = (url: string, method: 'GET' | 'POST' | 'DELETE' = 'GET') =>
      t.app.inject({ method, url, headers: t.bearer(admin.idToken) });
    assert.equal((await upload('EXPAND-1', 'before')).statusCode, 201);
    // Everything the instance prepares or caches is in use before the migration.
    assert.equal((await download('EXPAND-1')).statusCode, 200);
    assert.equal((await asAdmin('/api/users')).statusCode, 200);
    assert.equal((await t.app.inject({ url: '/api/users/user@example.com' })).statusCode, 200);

    const journal = await releaseJournal();
    await applyNext([{ tag: `${String(journal.length).padStart(4, '0')}_next_expand`, sql: EXPAND }]);
    const level = await schemaLevel(t.database.db);
    assert.equal(level.applied, journal.length + 1, 'the database is one migration ahead of this instance');

    assert.equal(sha256Of((await download('EXPAND-1')).rawPayload), sha256Of(fakePdf('before')));
    assert.equal((await upload('EXPAND-1', 'after')).json().status, 'replaced');
    assert.equal(sha256Of((await download('EXPAND-1')).rawPayload), sha256Of(fakePdf('after')));
    assert.equal((await upload('EXPAND-2', 'new')).statusCode, 201);
    assert.equal((await asAdmin('/api/users')).json().length, 2);
    assert.equal((await t.app.inject({ url: '/api/users/user@example.com' })).statusCode, 200);
    assert.equal((await asAdmin('/api/users/someone@example.com', 'POST')).statusCode, 201);
    assert.equal((await asAdmin('/api/users/someone@example.com', 'DELETE')).statusCode, 200);
    await t.app.domain.auditWriter.flush();
    assert.equal((await asAdmin('/api/audit')).statusCode, 200);
    if (databaseUrl) {
      // A new instance of this release, started with MIGRATE_ON_START=false, accepts a schema ahead of it.
      const another = await openDatabase({ kind: 'postgres', url: databaseUrl }, { migrate: false });
      await another.close();
    }

    // What the decision forbids in one step: the running instance can no longer find its column.
    await applyNext([
      { tag: `${String(journal.length).padStart(4, '0')}_next_expand`, sql: EXPAND },
      { tag: `${String(journal.length + 1).padStart(4, '0')}_next_rename`, sql: RENAME },
    ]);
    const broken = await t.app.inject({ url: '/api/invoice?parcelCode=EXPAND-2', headers: t.bearer(user.idToken) });
    assert.equal(broken.statusCode, 500, 'a rename breaks the instance still running: expand, then contract');
  });
});
