import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { failingIdentity } from '../../test/helpers/failing-identity.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { readMigrationJournal } from '../db/client.ts';
import { fakePdf } from '../../test/helpers/fixtures.ts';
import { currentRelease } from '../release.ts';

const METRICS_TOKEN = 'metrics-token-0123456789-0123456789';

describe('metrics', () => {
  const identity = failingIdentity();
  const t = useTestApp({
    env: { METRICS_TOKEN, RATE_LIMIT_LOOKUPS_PER_MINUTE: '1' },
    wrapIdentity: identity.wrap,
  });
  const scrape = async () =>
    (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;

  it('are not public: no token or a wrong one is refused', async () => {
    assert.equal((await t.app.inject({ url: '/metrics' })).statusCode, 401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().code, 'unauthenticated');
  });

  it('count requests by route and status, downloads and bytes, refusals, token-cache hits, pool use and audit writes, and name the build', async () => {
    const { idToken } = await t.createAccount('reader@example.com');
    const pdf = fakePdf('METRICS1');
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/invoices/METRICS1',
      headers: { ...t.bearer(admin.idToken), 'content-type': 'application/pdf' },
      payload: pdf,
    });
    assert.equal(put.statusCode, 201);
    // The admin's calls so far (the passkey set-up, the upload) looked their token up too: counted from here.
    const lookups = (text: string, outcome: 'hit' | 'miss') =>
      Number(new RegExp(`portal_token_cache_lookups_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    const before = await scrape();
    for (let i = 0; i < 2; i += 1) {
      const download = await t.app.inject({ url: '/api/invoice?parcelCode=METRICS1', headers: t.bearer(idToken) });
      assert.equal(download.statusCode, 200);
    }
    await t.app.inject({ url: '/api/users/someone@example.com' });
    await t.app.inject({ url: '/api/users/someone@example.com' });

    const text = await scrape();
    assert.match(
      text,
      /portal_http_request_duration_seconds_count\{method="GET",route="\/api\/invoice",status_code="200"\} 2/,
    );
    assert.match(text, /^portal_invoice_downloads_total 2$/m);
    assert.match(text, new RegExp(`^portal_invoice_download_bytes_total ${pdf.length * 2}$`, 'm'));
    assert.match(text, /portal_rate_limit_refusals_total\{route="\/api\/users\/:email"\} 1/);
    // The reader's first download verified the token, the second found it in the cache.
    assert.equal(lookups(text, 'miss') - lookups(before, 'miss'), 1);
    assert.equal(lookups(text, 'hit') - lookups(before, 'hit'), 1);
    const pool = (state: string) =>
      Number(new RegExp(`^portal_db_pool_connections\\{state="${state}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    assert.ok(
      ['active', 'idle'].every((state) => Number.isInteger(pool(state))),
      'the two states, each a count',
    );
    assert.doesNotMatch(text, /portal_db_pool_connections\{state="(total|waiting)"\}/, 'only states that add up');
    assert.match(text, /^portal_db_pool_waiting_requests \d+$/m);
    assert.ok(pool('active') + pool('idle') >= 1, "the connection that answered the scrape's own pool read is open");
    assert.match(text, /^portal_allowlist_notifications_live 1$/m, 'the started domain hears allowlist changes');
    const { version, revision } = currentRelease();
    assert.match(text, new RegExp(`^portal_build_info\\{version="${version}",revision="${revision}"\\} 1$`, 'm'));
    assert.match(text, /portal_audit_write_seconds_count [1-9]/);
    assert.doesNotMatch(text, /someone@example\.com|METRICS1/, 'routes are patterns, never raw URLs');
  });

  it("time the identity provider's calls and count its failures by operation, never a refused token", async () => {
    const { idToken } = await t.createAccount('reader@example.com');
    const before = await scrape();
    const verify = 'portal_identity_request_duration_seconds_count{operation="verify_id_token"}';
    const verifyErrors = 'portal_identity_errors_total{operation="verify_id_token"}';
    assert.equal(
      sample(before, 'portal_identity_errors_total{operation="delete_user"}'),
      0,
      'every operation from the start',
    );

    await t.app.inject({ url: '/api/invoice?parcelCode=NOSUCH1', headers: t.bearer(idToken) });
    await t.app.inject({ url: '/api/invoice?parcelCode=NOSUCH1', headers: t.bearer('not-a-token') });
    let text = await scrape();
    assert.equal(sample(text, verify)! - sample(before, verify)!, 2, 'both verifications timed');
    assert.equal(sample(text, verifyErrors), sample(before, verifyErrors), 'a refused token is an answer');

    identity.fail('verifyIdToken');
    const outage = await t.app.inject({ url: '/api/invoice?parcelCode=NOSUCH1', headers: t.bearer('another-token') });
    identity.heal();
    assert.equal(outage.statusCode, 503);
    text = await scrape();
    assert.equal(sample(text, verifyErrors)! - sample(before, verifyErrors)!, 1);
  });

  it("time the invoice store's calls by store and operation, and count its failures", async () => {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const store = t.invoiceStore.kind === 'object' ? 's3' : 'folder';
    const put = `portal_blob_store_request_duration_seconds_count{store="${store}",operation="put"}`;
    const putErrors = `portal_blob_store_errors_total{store="${store}",operation="put"}`;
    const before = await scrape();
    const upload = (payload: Buffer) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/invoices/STORE1',
        headers: { ...t.bearer(admin.idToken), 'content-type': 'application/pdf' },
        payload,
      });
    assert.equal((await upload(fakePdf('STORE1'))).statusCode, 201);
    assert.equal((await upload(Buffer.from('not a pdf at all'))).statusCode, 400);
    const text = await scrape();
    assert.equal(sample(text, put)! - sample(before, put)!, 1, 'a body that is no PDF never reaches the store');
    assert.equal(sample(text, putErrors), 0);
    assert.equal(sample(text, `portal_blob_store_throttled_total{store="${store}"}`), 0);
  });

  it('read the clean-up queue, the schema level and the audit backlog at each scrape', async () => {
    let text = await scrape();
    assert.equal(sample(text, 'portal_account_cleanups_pending'), 0);
    assert.equal(sample(text, 'portal_account_cleanups_oldest_age_seconds'), 0, 'no job, no age');
    const migrations = (await readMigrationJournal()).length;
    assert.equal(sample(text, 'portal_schema_migrations_applied'), migrations);
    assert.equal(sample(text, 'portal_schema_migrations_expected'), migrations);
    assert.ok(Number.isInteger(sample(text, 'portal_audit_entries_pending')));
    assert.equal(sample(text, 'portal_audit_entries_dropped_total'), 0);
    const heartbeatAge = sample(text, 'portal_allowlist_notifications_heartbeat_age_seconds')!;
    // PGlite hears its own changes; PostgreSQL's listener proves itself with a heartbeat every 2 s.
    if (t.database.kind === 'pglite') assert.equal(heartbeatAge, 0);
    else assert.ok(heartbeatAge >= 0 && heartbeatAge < 10, `heartbeat age ${heartbeatAge}`);

    await t.database.db.execute(
      sql`insert into account_cleanups (email, requested_by, requested_at) values ('gone@example.com', 'admin@example.com', now() - interval '90 seconds'), ('left@example.com', 'admin@example.com', now())`,
    );
    text = await scrape();
    assert.equal(sample(text, 'portal_account_cleanups_pending'), 2);
    const age = sample(text, 'portal_account_cleanups_oldest_age_seconds')!;
    assert.ok(age >= 90 && age < 150, `the oldest job's age: ${age}`);
    assert.doesNotMatch(text, /gone@example\.com/);
    assert.equal(
      sample(text, 'portal_job_queue_pending{queue="account-cleanups"}'),
      2,
      'the same queue, by the common names',
    );
  });

  it('read every job queue of the background registry, the arrival mail included, and count their failures', async () => {
    let text = await scrape();
    for (const queue of t.app.domain.background.queues().map((known) => known.name)) {
      assert.equal(sample(text, `portal_job_queue_pending{queue="${queue}"}`), 0, queue);
      assert.equal(sample(text, `portal_job_queue_oldest_age_seconds{queue="${queue}"}`), 0, queue);
      assert.equal(sample(text, `portal_job_queue_failures_total{queue="${queue}"}`), 0, `${queue}: counted from 0`);
    }
    await t.createAccount('waiting@example.com');
    // One request whose invoice came 5 minutes ago (a mail job), one still waiting for its invoice (no job yet).
    await t.database.db.execute(sql`insert into invoice_arrival_notices
      (user_email, parcel_code, link, expires_at, arrived_at, next_attempt_at)
      values ('waiting@example.com', 'P-ARRIVED', 'https://portal.example/#/invoice', now() + interval '1 day',
              now() - interval '5 minutes', now() + interval '1 hour'),
             ('waiting@example.com', 'P-WAITING', 'https://portal.example/#/invoice', now() + interval '1 day', null, null)`);
    text = await scrape();
    assert.equal(
      sample(text, 'portal_job_queue_pending{queue="arrival-mail"}'),
      1,
      'only the request whose invoice came',
    );
    const age = sample(text, 'portal_job_queue_oldest_age_seconds{queue="arrival-mail"}')!;
    assert.ok(age >= 300 && age < 360, `the oldest mail's age: ${age}`);

    // A clean-up whose identity call fails: one failure counted, the job put back. Backing off already, so only
    // this test's "now" takes it, not the background worker's round.
    await t.database.db.execute(
      sql`insert into account_cleanups (email, firebase_uid, requested_by, next_attempt_at) values ('gone@example.com', 'uid-gone', 'admin@example.com', now() + interval '1 hour')`,
    );
    identity.fail('revokeSessions');
    try {
      assert.deepEqual(await t.app.domain.accountCleaner.runAll(), { done: 0, pending: 1 });
    } finally {
      identity.heal();
    }
    text = await scrape();
    assert.equal(sample(text, 'portal_job_queue_failures_total{queue="account-cleanups"}'), 1);
  });
});

/** The value of one sample of a scrape, by its name with labels as Prometheus prints them. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('metrics without a token', () => {
  const t = useTestApp();
  it('are off', async () => {
    const response = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer anything' } });
    assert.equal(response.statusCode, 404);
  });
});
