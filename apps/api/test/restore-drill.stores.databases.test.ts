/**
 * The restore drill: a portal with people, audit entries and invoices (one of them replaced) is backed up,
 * encrypted and signed, restored into a new database and a new, empty invoice store, verified, and the
 * restored portal serves the same bytes to the same people and refuses the same people. Two of the invoices
 * are e-invoices, so the blobs named by xml_sha256 and rendering_sha256 travel too. Runs on PGlite and
 * PostgreSQL, on the folder and the object store (the runner's passes). backup-tampering.databases.test.ts has the
 * backups someone changed.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { freshDatabaseBeside } from '@portal/dev-stack';
import { createApp } from '../src/app.ts';
import { runBackup } from '../src/backup/backup.ts';
import { checkBackup } from '../src/backup/backup-check.ts';
import { folderLocation } from '../src/backup/location.ts';
import { readSignedManifest } from '../src/backup/manifest.ts';
import { RestoreRefusedError, runRestore } from '../src/backup/restore.ts';
import { runVerify } from '../src/backup/verify.ts';
import { buildDomain } from '../src/domain.ts';
import { createLogger } from '../src/observability/logging.ts';
import { EPHEMERAL_TABLE_NAMES } from '../src/db/ephemeral-tables.ts';
import { testBackupKeys } from './helpers/backup-keys.ts';
import { fakePdf, sha256Of } from './helpers/fixtures.ts';
import { invoiceStoreKind } from './helpers/invoice-stores.ts';
import { openRestoreTarget } from './helpers/restore-target.ts';
import { storedFacts } from './helpers/stored-facts.ts';
import { useTestApp } from './helpers/test-app.ts';
import { signUp } from './helpers/tokens.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const CODES = ['DRILL-A', 'DRILL-B', 'DRILL-LARGE', 'DRILL-FX', 'DRILL-XML', 'NONE-SUCH'];
/** The e-invoices of the drill: their XML is served on its own, from the blob xml_sha256 names. */
const XML_CODES = ['DRILL-FX', 'DRILL-XML'];
const eInvoiceFixture = readEInvoiceFixture;

/** Every folder and file under `dir` (itself included) with its permission bits, as `folder/ 700` or `file 600`. */
async function modesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = [dir, ...entries.map((entry) => path.join(entry.parentPath, entry.name))];
  return Promise.all(
    paths.map(async (entry) => {
      const stats = await stat(entry);
      const name = `${path.relative(dir, entry) || '.'}${stats.isDirectory() ? '/' : ''}`;
      return `${name} ${(stats.mode & 0o777).toString(8)}`;
    }),
  );
}

/** Row counts of every table, as the restored database must have them. */
async function tableCounts(db: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> }) {
  const tables = (
    (await db.execute(
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )) as { rows: { name: string }[] }
  ).rows;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = (
      (await db.execute(sql`select count(*) as n from ${sql.identifier(name)}`)) as { rows: { n: string }[] }
    ).rows;
    counts[name] = Number(row?.n);
  }
  return counts;
}

describe(`restore drill (${invoiceStoreKind()} store)`, () => {
  const t = useTestApp({ env: { INGEST_TOKEN } });
  const keysReady = testBackupKeys();
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('backs up, restores into an empty database and store, and the restored portal answers everyone as before', async (test) => {
    // --- A portal in use --------------------------------------------------------------------------------
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    const removed = await t.createAccount('leaver@example.com');
    const outsider = await signUp('outsider@example.com');
    await t.createAccount('invited@example.com', { activated: false });
    const upload = (code: string, bytes: Buffer, contentType = 'application/pdf') =>
      t.app.inject({
        method: 'PUT',
        url: `/api/invoices/${code}`,
        payload: bytes,
        headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': contentType },
      });
    assert.equal((await upload('DRILL-A', fakePdf('drill a, first'))).statusCode, 201);
    assert.equal((await upload('DRILL-A', fakePdf('drill a, corrected'))).json().status, 'replaced');
    assert.equal((await upload('DRILL-B', fakePdf('drill b'))).statusCode, 201);
    assert.equal((await upload('DRILL-LARGE', fakePdf('drill large', 3 * 1024 * 1024))).statusCode, 201);
    // A Factur-X hybrid (the PDF and its attached XML) and an XML-only invoice (the XML and its rendering).
    assert.equal((await upload('DRILL-FX', await eInvoiceFixture('facturx-en16931.pdf'))).statusCode, 201);
    const xmlOnly = await eInvoiceFixture('xrechnung-ubl.xml');
    assert.equal((await upload('DRILL-XML', xmlOnly, 'application/xml')).statusCode, 201);
    const eInvoiceRows = (
      (await t.database.db.execute(
        sql`select parcel_code, sha256, xml_sha256, rendering_sha256 from invoices where parcel_code in ('DRILL-FX', 'DRILL-XML') order by parcel_code`,
      )) as unknown as {
        rows: { parcel_code: string; sha256: string; xml_sha256: string | null; rendering_sha256: string | null }[];
      }
    ).rows;
    const [hybridRow, xmlOnlyRow] = eInvoiceRows;
    assert.ok(hybridRow?.xml_sha256 && hybridRow.xml_sha256 !== hybridRow.sha256, 'the hybrid names its XML blob');
    assert.ok(xmlOnlyRow?.rendering_sha256, 'the XML-only invoice names its rendering');
    const removal = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/leaver@example.com',
      headers: t.bearer(admin.idToken),
    });
    assert.equal(removal.statusCode, 200);
    // An orphan: bytes a crashed upload left with no row. Not part of the backup.
    await t.blobStore.put(fakePdf('orphan'), { maxBytes: 1_000_000 });

    const people = { admin, user, removed, outsider };
    type App = typeof t.app;
    const answers = async (app: App) => {
      const seen: Record<string, string> = {};
      for (const [who, account] of Object.entries(people)) {
        for (const code of CODES) {
          const response = await app.inject({
            url: `/api/invoice?parcelCode=${code}`,
            headers: t.bearer(account.idToken),
          });
          seen[`${who} ${code}`] =
            response.statusCode === 200 ? `200 ${sha256Of(response.rawPayload)}` : String(response.statusCode);
        }
        for (const code of XML_CODES) {
          const response = await app.inject({ url: `/api/invoices/${code}/xml`, headers: t.bearer(account.idToken) });
          seen[`${who} ${code} xml`] =
            response.statusCode === 200 ? `200 ${sha256Of(response.rawPayload)}` : String(response.statusCode);
        }
      }
      return seen;
    };
    const before = await answers(t.app);
    assert.equal(before['user DRILL-A'], `200 ${sha256Of(fakePdf('drill a, corrected'))}`);
    assert.equal(before['removed DRILL-A'], '401');
    assert.equal(before['outsider DRILL-B'], '401');
    assert.equal(before['admin NONE-SUCH'], '404');
    assert.equal(before['user DRILL-XML xml'], `200 ${sha256Of(xmlOnly)}`);
    assert.equal(before['user DRILL-XML'], `200 ${xmlOnlyRow.rendering_sha256}`, 'the screen gets the rendering');
    assert.equal(before['user DRILL-FX xml'], `200 ${hybridRow.xml_sha256}`);
    await t.app.domain.auditWriter.flush();
    // Download counts reach rate_limit_windows at each instance's flush, and the opens above invoice_opens at
    // the next second's: both written now, so the counts below and the snapshot see the same rows.
    await t.app.domain.rateLimits.flush();
    await t.app.domain.recentInvoices.flush();
    const countsBefore = await tableCounts(t.database.db as never);
    assert.ok(countsBefore.audit_log! > 5, 'the audit log has entries to restore');
    assert.ok(countsBefore.admin_passkeys! > 0, "the admin's passkey is kept");
    assert.ok(
      countsBefore.rate_limit_windows! > 0 && countsBefore.admin_confirmations! > 0,
      'short-lived state to leave out',
    );
    const keptCounts = Object.fromEntries(
      Object.entries(countsBefore).filter(([table]) => !EPHEMERAL_TABLE_NAMES.has(table)),
    );

    // --- Back up while it runs ---------------------------------------------------------------------------
    const work = await mkdtemp(path.join(os.tmpdir(), 'portal-drill-'));
    cleanups.push(() => rm(work, { recursive: true, force: true }));
    const keys = await keysReady;
    const backupDir = path.join(work, 'backup');
    // Made beforehand by a careless hand, world-readable: the backup closes it.
    await mkdir(backupDir, { mode: 0o755 });
    let started = performance.now();
    const backup = await runBackup({ database: t.database, blobStore: t.blobStore }, backupDir, keys.write);
    const backupSeconds = (performance.now() - started) / 1000;
    assert.deepEqual(backup.problems, []);
    const manifest = await readSignedManifest(folderLocation(backupDir), backup.manifest.id, keys.read.verifyKey);
    assert.equal(
      manifest.blobs.count,
      8,
      'both versions of DRILL-A, DRILL-B, DRILL-LARGE, the hybrid and its XML, the XML-only invoice and its rendering; not the orphan',
    );
    assert.deepEqual(
      Object.fromEntries(manifest.tables.map((table) => [table.name, table.rows])),
      keptCounts,
      'every table but the short-lived ones, with every row',
    );

    // Owner-only, and nothing in it readable without the identity: no address, no invoice's bytes.
    const modes = await modesUnder(backupDir);
    assert.ok(modes.length > 12);
    for (const entry of modes)
      assert.match(entry, /\/ 700$|^[^/ ]+(\/[^/ ]+)* 600$/, `${entry}: folders 0700, files 0600`);
    assert.ok(
      modes.includes('./ 700') &&
        modes.includes(`backups/${manifest.id}/manifest.json 600`) &&
        modes.includes(`backups/${manifest.id}/manifest.json.sig 600`),
    );
    const backupBytes = Buffer.concat(
      await Promise.all(
        modes
          .filter((entry) => entry.endsWith(' 600'))
          .map((entry) => readFile(path.join(backupDir, entry.slice(0, -' 600'.length)))),
      ),
    );
    for (const secret of ['user@example.com', 'drill b', 'drill large', 'admin@example.com'])
      assert.equal(backupBytes.includes(secret), false, `${secret} appears in the backup unencrypted`);
    const checked = await checkBackup(backupDir, keys.read);
    assert.deepEqual(checked.problems, []);
    assert.equal(checked.files, manifest.tables.length + 8);

    // --- Restore into a new database and a new, empty store --------------------------------------------
    const databaseUrl = process.env.DATABASE_URL
      ? await freshDatabaseBeside(process.env.DATABASE_URL, 'restore_drill')
      : '';
    const { store, infrastructure } = await openRestoreTarget(path.join(work, 'restored'), {
      databaseUrl,
      env: { WEB_DIST_DIR: path.join(work, 'no-web-build') },
    });
    cleanups.push(() => store.close());
    cleanups.push(() => infrastructure.close());
    started = performance.now();
    const restored = await runRestore(infrastructure, backupDir, keys.read);
    const restoreSeconds = (performance.now() - started) / 1000;
    assert.deepEqual(restored.report.dropped, []);
    const report = await runVerify(infrastructure);
    assert.deepEqual([report.missing, report.damaged, report.orphans], [[], [], []]);
    assert.equal(report.named, 8);
    assert.deepEqual(await tableCounts(infrastructure.database.db as never), {
      ...keptCounts,
      // Short-lived state starts empty; the invoice retention in force is the one row its migration writes.
      ...Object.fromEntries([...EPHEMERAL_TABLE_NAMES].map((table) => [table, table === 'invoice_retention' ? 1 : 0])),
    });

    // A second restore into what is now a portal in use is refused, and changes nothing.
    await assert.rejects(runRestore(infrastructure, backupDir, keys.read), (error: Error) => {
      assert.ok(error instanceof RestoreRefusedError);
      assert.match(error.message, /database is not empty/);
      return true;
    });

    // --- The restored portal -----------------------------------------------------------------------------
    const log = createLogger({ logLevel: 'silent' });
    const domain = buildDomain(infrastructure, { log });
    await domain.start();
    const app = await createApp(domain, log);
    cleanups.push(async () => {
      await app.close();
      await domain.close();
    });
    assert.deepEqual(await answers(app as App), before);
    // Ids go on from where they were: a new audit entry does not reuse one the backup holds. (A code nobody asked
    // for: an entry like one of the backup's, in the same minute, is folded into that row instead of a new one.)
    await app.inject({ url: '/api/invoice?parcelCode=DRILL-AFTER-RESTORE', headers: t.bearer(user.idToken) });
    await domain.auditWriter.flush();
    const ids = (
      (await infrastructure.database.db.execute(
        sql`select max(id) as max, count(*) as n from audit_log`,
      )) as unknown as {
        rows: { max: string; n: string }[];
      }
    ).rows[0]!;
    assert.ok(Number(ids.n) > countsBefore.audit_log!);
    // So do the parties' ids: names first seen after the restore get new ones, not one a restored party holds.
    assert.ok(countsBefore.invoice_sellers! > 0 && countsBefore.invoice_buyers! > 0, 'the e-invoices named parties');
    assert.equal(
      (
        await domain.invoices.recordVersion({
          parcelCode: 'DRILL-NEW-PARTIES',
          sha256: sha256Of(fakePdf('drill new parties')),
          size: 1,
          uploadedBy: 'drill',
          format: 'cii',
          facts: storedFacts('DE02120300000000202051', {
            sellerName: 'Seller After Restore',
            buyerName: 'Buyer After Restore',
          }),
        })
      ).status,
      'created',
    );
    const parties = (
      (await infrastructure.database.db.execute(
        sql`select (select count(*)::int from invoice_sellers) as sellers, (select count(*)::int from invoice_buyers) as buyers`,
      )) as unknown as { rows: { sellers: number; buyers: number }[] }
    ).rows[0]!;
    assert.deepEqual(parties, { sellers: countsBefore.invoice_sellers! + 1, buyers: countsBefore.invoice_buyers! + 1 });
    test.diagnostic(
      `backup ${backupSeconds.toFixed(2)} s, restore ${restoreSeconds.toFixed(2)} s, verify ${report.seconds.toFixed(2)} s (${manifest.blobs.count} blobs, ${Object.values(countsBefore).reduce((a, b) => a + b, 0)} rows)`,
    );
  });

  it('refuses a backup folder that holds anything but backups, and a restore into a database or store that is not empty', async () => {
    const keys = await keysReady;
    await t.app.inject({
      method: 'PUT',
      url: '/api/invoices/DAMAGE-1',
      payload: fakePdf('damage'),
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
    });
    const work = await mkdtemp(path.join(os.tmpdir(), 'portal-drill-'));
    cleanups.push(() => rm(work, { recursive: true, force: true }));
    const backupDir = path.join(work, 'backup');
    await runBackup({ database: t.database, blobStore: t.blobStore }, backupDir, keys.write);
    // A home folder, or a backup of the earlier one-folder format: not a place for backups.
    const foreign = path.join(work, 'foreign');
    await mkdir(foreign);
    await writeFile(path.join(foreign, 'manifest.json'), '{}');
    await assert.rejects(
      runBackup({ database: t.database, blobStore: t.blobStore }, foreign, keys.write),
      /holds manifest\.json: backups go into a new or empty folder, or one that holds only backups/,
    );

    // Into the source itself: its database and store are in use.
    await assert.rejects(
      runRestore({ database: t.database, blobStore: t.blobStore }, backupDir, keys.read),
      /not empty/,
    );
    const { store, infrastructure } = await openRestoreTarget(path.join(work, 'restored'));
    cleanups.push(() => store.close());
    cleanups.push(() => infrastructure.close());
    await infrastructure.blobStore.put(fakePdf('already here'), { maxBytes: 1_000_000 });
    await assert.rejects(runRestore(infrastructure, backupDir, keys.read), /store .* is not empty/);
  });
});
