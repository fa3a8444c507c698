/**
 * The invoice retention (INVOICE_RETENTION_YEARS): below it the database itself refuses to delete an invoice
 * or one of its versions, to empty their tables or to change a version's bytes, whoever asks (the portal's
 * role in psql included); the orphan clean-up deletes no invoice file younger than it; a process started
 * without the setting never lowers it. The bucket's own guard, S3 Object Lock, is checked at the edge: what
 * the invoice store sends to an S3 server that records each request (the local S3 server of the tests has no
 * Object Lock).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { runVerify } from '../src/backup/verify.ts';
import { createS3BlobStore, lockedUntil } from '../src/blob-store/s3-blob-store.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import {
  invoiceRetentionYears,
  isRetentionRefusal,
  raiseInvoiceRetention,
  setInvoiceRetention,
} from '../src/db/invoice-retention.ts';
import { fakePdf, sha256Of } from './helpers/fixtures.ts';
import { useTestApp } from './helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';

describe('invoice retention', () => {
  const t = useTestApp({ env: { INGEST_TOKEN } });
  // The test database outlives this file on PostgreSQL: the next test empties its tables, which the guard forbids.
  afterEach(() => setInvoiceRetention(t.database.db, undefined));

  const upload = async (code: string, label: string) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${code}`,
      payload: fakePdf(label),
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
    });
    assert.ok([200, 201].includes(response.statusCode));
  };
  const refused = async (statement: ReturnType<typeof sql>, what: RegExp) => {
    await assert.rejects(t.database.db.execute(statement), (error: Error) => {
      assert.ok(isRetentionRefusal(error), `${error.message}: not the retention's refusal`);
      assert.match(`${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`, what);
      return true;
    });
  };
  const count = async (table: string) =>
    Number(
      (
        (await t.database.db.execute(sql`select count(*) as n from ${sql.identifier(table)}`)) as unknown as {
          rows: { n: string }[];
        }
      ).rows[0]?.n,
    );

  it('refuses to delete, empty or rewrite an invoice version younger than the retention, by any path', async () => {
    await upload('KEEP-1', 'kept first');
    await upload('KEEP-1', 'kept second');
    await setInvoiceRetention(t.database.db, 10);
    await refused(sql`delete from invoice_versions where parcel_code = 'KEEP-1'`, /KEEP-1 .* is kept until/);
    await refused(sql`delete from invoices where parcel_code = 'KEEP-1'`, /INVOICE_RETENTION_YEARS is 10/);
    await refused(sql`truncate table invoice_versions, invoice_warnings`, /cannot be emptied/);
    await refused(sql`truncate table invoices cascade`, /cannot be emptied/);
    await refused(sql`update invoice_versions set sha256 = ${sha256Of(fakePdf('other'))}`, /is kept until/);
    await refused(sql`update invoice_versions set uploaded_at = now() - interval '20 years'`, /is kept until/);
    assert.equal(await count('invoice_versions'), 2);
    assert.equal(await count('invoices'), 1);
    // What is not the record may change: the facts read from it, the markers.
    await t.database.db.execute(sql`update invoice_versions set bank_details_changed_at = now()`);
    // A replacement is a new version: the current invoice moves on, the old version stays.
    await upload('KEEP-1', 'kept third');
    assert.equal(await count('invoice_versions'), 3);

    // Past the retention, a version may go (as the operator's own clean-up would).
    await setInvoiceRetention(t.database.db, undefined);
    await t.database.db.execute(
      sql`update invoice_versions set uploaded_at = now() - interval '11 years' where id = (select min(id) from invoice_versions)`,
    );
    await setInvoiceRetention(t.database.db, 10);
    await t.database.db.execute(sql`delete from invoice_versions where uploaded_at < now() - interval '10 years'`);
    assert.equal(await count('invoice_versions'), 2);
    await refused(sql`delete from invoice_versions`, /is kept until/);

    // Off, nothing is guarded (the default).
    await setInvoiceRetention(t.database.db, undefined);
    await t.database.db.execute(sql`delete from invoice_versions where parcel_code = 'KEEP-1'`);
    assert.equal(await count('invoice_versions'), 0);
  });

  it('is raised by a process started with a higher setting, never lowered by one started without it', async () => {
    assert.equal(await invoiceRetentionYears(t.database.db), undefined);
    await raiseInvoiceRetention(t.database.db, 8);
    assert.equal(await invoiceRetentionYears(t.database.db), 8);
    await raiseInvoiceRetention(t.database.db, 10);
    assert.equal(await invoiceRetentionYears(t.database.db), 10);
    // A CLI run on a machine whose environment says less, or nothing.
    await raiseInvoiceRetention(t.database.db, 5);
    await raiseInvoiceRetention(t.database.db, undefined);
    assert.equal(await invoiceRetentionYears(t.database.db), 10);
  });

  it('keeps an orphaned invoice file younger than the retention when orphans are deleted', async () => {
    await upload('ORPHAN-1', 'named');
    const orphan = await t.blobStore.put(fakePdf('a file whose row is gone'), { maxBytes: 1_000_000 });
    await setInvoiceRetention(t.database.db, 8);
    const kept = await runVerify(t, { deleteOrphans: true, orphanMinAgeMs: 0 });
    // Earlier tests' files are orphans too (their rows were emptied): each is young, so each is kept.
    assert.deepEqual(kept.deleted, []);
    assert.ok(kept.retained.includes(orphan.sha256));
    assert.deepEqual(
      kept.retained,
      kept.orphans.map((blob) => blob.sha256),
    );
    assert.ok(await t.blobStore.open(orphan.sha256).then((blob) => (blob?.stream.destroy(), blob)));
    await setInvoiceRetention(t.database.db, undefined);
    const deleted = await runVerify(t, { deleteOrphans: true, orphanMinAgeMs: 0 });
    assert.ok(deleted.deleted.includes(orphan.sha256));
    assert.deepEqual(deleted.retained, []);
  });

  it('asks for Object Lock only on a bucket, with the retention it locks for', () => {
    const base = { FIREBASE_PROJECT_ID: 'demo-retention', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9' };
    assert.throws(
      () => loadConfig({ ...base, INVOICE_STORE_OBJECT_LOCK_MODE: 'compliance', INVOICE_RETENTION_YEARS: '10' }),
      (error: Error) =>
        error instanceof ConfigError &&
        /INVOICE_STORE_OBJECT_LOCK_MODE needs INVOICE_STORE .* the folder store has no Object Lock/.test(error.message),
    );
    assert.throws(
      () =>
        loadConfig({ ...base, INVOICE_STORE: 's3://invoices/portal', INVOICE_STORE_OBJECT_LOCK_MODE: 'governance' }),
      /needs INVOICE_STORE .* and INVOICE_RETENTION_YEARS/,
    );
    assert.throws(() => loadConfig({ ...base, INVOICE_RETENTION_YEARS: '0' }), ConfigError);
    const config = loadConfig({
      ...base,
      INVOICE_STORE: 's3://invoices/portal',
      INVOICE_STORE_OBJECT_LOCK_MODE: 'compliance',
      INVOICE_RETENTION_YEARS: '10',
    });
    assert.equal(config.invoiceRetentionYears, 10);
    assert.deepEqual(config.invoiceStore.kind === 's3' && config.invoiceStore.objectLock, {
      mode: 'COMPLIANCE',
      years: 10,
    });
    assert.equal(loadConfig(base).invoiceRetentionYears, undefined);
  });

  it('sends each new object with its lock, and extends the lock of one already there, never shortens it', async () => {
    const requests: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
    const existing = new Map<string, number>();
    let retainedUntil = '2027-01-01T00:00:00.000Z';
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({ method: request.method!, url: request.url!, headers: request.headers });
        const key = new URL(request.url!, 'http://x').pathname;
        if (request.method === 'HEAD') {
          const size = existing.get(key);
          if (size === undefined) return void response.writeHead(404).end();
          return void response.writeHead(200, { 'content-length': size }).end();
        }
        if (request.method === 'GET' && request.url!.includes('retention')) {
          response.writeHead(200, { 'content-type': 'application/xml' });
          return void response.end(
            `<?xml version="1.0" encoding="UTF-8"?><Retention><Mode>COMPLIANCE</Mode><RetainUntilDate>${retainedUntil}</RetainUntilDate></Retention>`,
          );
        }
        if (request.method === 'PUT' && !request.url!.includes('retention'))
          existing.set(key, Buffer.concat(chunks).length);
        response.writeHead(200, { etag: '"e"' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const spoolDir = await mkdtemp(path.join(os.tmpdir(), 'portal-lock-'));
    process.env.AWS_ACCESS_KEY_ID ??= 'portal-local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'portal-local-secret';
    const store = createS3BlobStore({
      bucket: 'locked',
      prefix: 'portal',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      timeoutMs: 5000,
      presignSeconds: 60,
      spoolDir,
      objectLock: { mode: 'COMPLIANCE', years: 10 },
    });
    try {
      const bytes = fakePdf('locked invoice');
      const before = lockedUntil(10);
      await store.put(bytes, { maxBytes: 1_000_000 });
      const put = requests.find((request) => request.method === 'PUT')!;
      assert.equal(put.headers['x-amz-object-lock-mode'], 'COMPLIANCE');
      const until = new Date(put.headers['x-amz-object-lock-retain-until-date'] as string);
      assert.ok(until >= before && until.getTime() - before.getTime() < 60_000, `locked until ${until.toISOString()}`);
      assert.equal(
        new URL(put.url, 'http://x').pathname,
        `/locked/portal/${sha256Of(bytes).slice(0, 2)}/${sha256Of(bytes)}`,
      );

      // The same bytes again (a new version equal to an old one): the lock is extended to ten years from now.
      requests.length = 0;
      await store.put(bytes, { maxBytes: 1_000_000 });
      assert.deepEqual(
        requests.map((request) => `${request.method} ${request.url.includes('retention') ? 'retention' : 'object'}`),
        ['HEAD object', 'GET retention', 'PUT retention'],
      );
      // Already locked for longer: left as it is.
      requests.length = 0;
      retainedUntil = '2099-01-01T00:00:00.000Z';
      await store.put(bytes, { maxBytes: 1_000_000 });
      assert.deepEqual(
        requests.map((request) => `${request.method} ${request.url.includes('retention') ? 'retention' : 'object'}`),
        ['HEAD object', 'GET retention'],
      );
    } finally {
      store.close();
      server.close();
      await rm(spoolDir, { recursive: true, force: true });
    }
  });
});
