import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAuditWriter } from '../audit/audit-writer.ts';
import type { AuditRepository } from '../audit/repository.ts';
import { BlobStoreUnavailableError, BlobTooLargeError } from '../blob-store/blob-store.ts';
import { createFsBlobStore } from '../blob-store/fs-blob-store.ts';
import { createS3BlobStore } from '../blob-store/s3-blob-store.ts';
import { measuredBlobStore, measuredMailer } from './dependency-metrics.ts';
import { createMetrics, type MetricsSources } from './metrics.ts';

const SHA = 'a'.repeat(64);

const sources = (overrides: Partial<MetricsSources> = {}): MetricsSources => ({
  poolUse: () => ({ total: 3, idle: 1, waiting: 2 }),
  allowlist: { isLive: () => true, heartbeatAgeSeconds: () => 1.5 },
  jobQueues: () => [
    { name: 'account-cleanups', stats: async () => ({ pending: 1, oldestAgeSeconds: 42 }) },
    { name: 'arrival-mail', stats: async () => ({ pending: 3, oldestAgeSeconds: 7 }) },
  ],
  migrationsApplied: async () => 16,
  migrationsExpected: async () => 17,
  auditPending: () => 3,
  ...overrides,
});

const sampleOf = async (metrics: ReturnType<typeof createMetrics>, series: string) => {
  const line = (await metrics.registry.metrics()).split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('the invoice store, measured', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-measured-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("counts the folder's failures, not the caller's refusals", async () => {
    const metrics = createMetrics(sources());
    const errors = (operation: string) =>
      sampleOf(metrics, `portal_blob_store_errors_total{store="folder",operation="${operation}"}`);
    const store = measuredBlobStore(createFsBlobStore(path.join(dir, 'invoices')), metrics);
    await store.put(Buffer.from('%PDF-1.7 fine'), { maxBytes: 100 });
    await assert.rejects(store.put(Buffer.from('%PDF-1.7 too long'), { maxBytes: 3 }), BlobTooLargeError);
    await assert.rejects(
      store.put(Buffer.from('nope'), {
        maxBytes: 100,
        validateHead: () => {
          throw new TypeError('not a PDF');
        },
      }),
      TypeError,
    );
    assert.equal(await store.open(SHA), undefined, 'absent is an answer');
    assert.equal(await errors('put'), 0);
    assert.equal(await errors('open'), 0);
    assert.equal(
      await sampleOf(metrics, 'portal_blob_store_request_duration_seconds_count{store="folder",operation="put"}'),
      3,
    );

    // A folder that cannot be written (its place taken by a file): the store's failure.
    const blocked = path.join(dir, 'blocked');
    await writeFile(blocked, 'a file where the folder should be');
    const broken = measuredBlobStore(createFsBlobStore(blocked), metrics);
    await assert.rejects(broken.put(Buffer.from('%PDF-1.7'), { maxBytes: 100 }));
    assert.equal(await errors('put'), 1);
    assert.equal(await sampleOf(metrics, 'portal_blob_store_throttled_total{store="folder"}'), 0);
  });

  describe('in a bucket that says it is overloaded', () => {
    let server: Server;
    let requests = 0;
    before(async () => {
      // What S3 answers under too many requests: 503 with the SlowDown code, to every attempt.
      server = createServer((request, response) => {
        requests += 1;
        request.resume();
        response.writeHead(503, { 'content-type': 'application/xml' });
        response.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>',
        );
      });
      server.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
    });
    after(() => new Promise((resolve) => server.close(resolve)));

    it('counts every throttled attempt, the retry included, and the failed call once', async () => {
      const metrics = createMetrics(sources());
      // The store takes its keys from the SDK's standard chain; any will do for a server that refuses all.
      process.env.AWS_ACCESS_KEY_ID ??= 'test';
      process.env.AWS_SECRET_ACCESS_KEY ??= 'test-secret';
      process.env.AWS_EC2_METADATA_DISABLED = 'true';
      const s3 = createS3BlobStore({
        bucket: 'invoices',
        prefix: 'portal',
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        region: 'us-east-1',
        forcePathStyle: true,
        timeoutMs: 5_000,
        presignSeconds: 60,
      });
      const store = measuredBlobStore(s3, metrics);
      try {
        await assert.rejects(store.open(SHA), BlobStoreUnavailableError);
      } finally {
        store.close();
      }
      assert.equal(requests, 2, 'the SDK tried twice');
      assert.equal(await sampleOf(metrics, 'portal_blob_store_throttled_total{store="s3"}'), 2);
      assert.equal(await sampleOf(metrics, 'portal_blob_store_errors_total{store="s3",operation="open"}'), 1);
      assert.equal(
        await sampleOf(metrics, 'portal_blob_store_request_duration_seconds_count{store="s3",operation="open"}'),
        1,
      );
    });
  });
});

describe('values read at each scrape', () => {
  it('add up the pool by state, and keep waiting requests apart', async () => {
    const text = await createMetrics(sources()).registry.metrics();
    assert.match(text, /^portal_db_pool_connections\{state="active"\} 2$/m);
    assert.match(text, /^portal_db_pool_connections\{state="idle"\} 1$/m);
    assert.match(text, /^portal_db_pool_waiting_requests 2$/m);
    assert.match(text, /^portal_schema_migrations_applied 16$/m);
    assert.match(text, /^portal_schema_migrations_expected 17$/m);
    assert.match(text, /^portal_account_cleanups_oldest_age_seconds 42$/m);
    assert.match(text, /^portal_job_queue_pending\{queue="account-cleanups"\} 1$/m);
    assert.match(text, /^portal_job_queue_oldest_age_seconds\{queue="arrival-mail"\} 7$/m);
    assert.match(text, /^portal_audit_entries_pending 3$/m);
    assert.match(text, /^portal_allowlist_notifications_heartbeat_age_seconds 1.5$/m);
  });

  it('leave out what the database cannot tell in time, and answer the rest', async () => {
    const never = () => new Promise<never>(() => {});
    const metrics = createMetrics(
      sources({
        jobQueues: () => [
          { name: 'account-cleanups', stats: never },
          { name: 'arrival-mail', stats: async () => ({ pending: 3, oldestAgeSeconds: 7 }) },
        ],
        migrationsApplied: () => Promise.reject(new Error('connection refused')),
        migrationsExpected: () => {
          throw new Error('thrown before any promise');
        },
      }),
      { readTimeoutMs: 200 },
    );
    const started = performance.now();
    const text = await metrics.registry.metrics();
    assert.ok(performance.now() - started < 2_000, 'the scrape does not wait for the database');
    assert.doesNotMatch(text, /^portal_account_cleanups_(pending|oldest_age_seconds) /m, 'absent, not a made-up 0');
    assert.doesNotMatch(text, /^portal_job_queue_\w+\{queue="account-cleanups"\}/m, 'the late queue is absent');
    assert.match(text, /^portal_job_queue_pending\{queue="arrival-mail"\} 3$/m, 'the queue that answered is there');
    assert.doesNotMatch(text, /^portal_schema_migrations_applied /m);
    assert.doesNotMatch(text, /^portal_schema_migrations_expected /m);
    assert.match(text, /^portal_build_info\{/m);
  });
});

describe('the audit writer', () => {
  it('says how many entries wait, and how many were lost when the audit log could not be written', async () => {
    let dropped = 0;
    const errors: object[] = [];
    const writer = createAuditWriter({
      // The audit log refusing every write, as a database gone away would.
      repository: { recordFolded: () => Promise.reject(new Error('connection refused')) } as unknown as AuditRepository,
      log: { error: (details) => errors.push(details) },
      onDropped: (entries) => (dropped += entries),
    });
    const download = {
      actor: 'jane@example.com',
      action: 'invoice.download' as const,
      target: 'P1',
      outcome: 'ok' as const,
    };
    writer.add(download);
    writer.add(download);
    writer.add({ ...download, target: 'P2' });
    assert.equal(writer.pending(), 3, 'folded or not, three entries wait');
    await writer.close();
    assert.equal(writer.pending(), 0);
    assert.equal(dropped, 3);
    assert.equal(errors.length, 1, 'and the loss is logged');
  });
});

describe('the SMTP relay, measured', () => {
  it('counts each mail the relay accepted and each it did not, passing the failure on', async () => {
    const metrics = createMetrics(sources());
    assert.equal(await sampleOf(metrics, 'portal_smtp_sends_total{outcome="failed"}'), 0);
    let relayUp = true;
    const mailer = measuredMailer(
      {
        send: async () => {
          if (!relayUp) throw new Error('connect ECONNREFUSED');
        },
        close: () => {},
      },
      metrics,
    );
    const mail = { to: 'someone@example.com', subject: 'An invoice arrived', text: 'Open it in the portal.' };
    await mailer.send(mail);
    relayUp = false;
    await assert.rejects(mailer.send(mail), /ECONNREFUSED/);
    await assert.rejects(mailer.send(mail), /ECONNREFUSED/);
    assert.equal(await sampleOf(metrics, 'portal_smtp_sends_total{outcome="sent"}'), 1);
    assert.equal(await sampleOf(metrics, 'portal_smtp_sends_total{outcome="failed"}'), 2);
  });
});
