import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { fakePdf } from '../../test/helpers/fixtures.ts';
import { currentRelease } from '../release.ts';

const METRICS_TOKEN = 'metrics-token-0123456789-0123456789';

describe('metrics', () => {
  const t = useTestApp({ env: { METRICS_TOKEN, RATE_LIMIT_LOOKUPS_PER_MINUTE: '1' } });
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
      ['active', 'idle', 'waiting'].every((state) => Number.isInteger(pool(state))),
      'the three states, each a count',
    );
    assert.ok(pool('active') + pool('idle') >= 1, "the connection that answered the scrape's own pool read is open");
    assert.match(text, /^portal_allowlist_notifications_live 1$/m, 'the started domain hears allowlist changes');
    const { version, revision } = currentRelease();
    assert.match(text, new RegExp(`^portal_build_info\\{version="${version}",revision="${revision}"\\} 1$`, 'm'));
    assert.match(text, /portal_audit_write_seconds_count [1-9]/);
    assert.doesNotMatch(text, /someone@example\.com|METRICS1/, 'routes are patterns, never raw URLs');
  });
});

describe('metrics without a token', () => {
  const t = useTestApp();
  it('are off', async () => {
    const response = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer anything' } });
    assert.equal(response.statusCode, 404);
  });
});
