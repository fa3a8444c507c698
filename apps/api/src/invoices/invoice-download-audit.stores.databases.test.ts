import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fakePdf, sha256Of } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';

describe('invoice downloads: audited, limited per user, searchable', () => {
  const t = useTestApp({
    env: { INGEST_TOKEN, RATE_LIMIT_DOWNLOADS_PER_HOUR: '5', RATE_LIMIT_UNKNOWN_PARCELS_PER_HOUR: '3' },
  });

  async function store(parcelCode: string, bytes: Uint8Array) {
    const blob = await t.blobStore.put(bytes, { maxBytes: t.config.maxInvoiceBytes });
    await t.app.domain.invoices.recordVersion({ parcelCode, uploadedBy: 'test', ...blob });
  }
  const download = (parcelCode: string, idToken: string) =>
    t.app.inject({ url: `/api/invoice?parcelCode=${parcelCode}`, headers: t.bearer(idToken) });

  it("records who downloaded which parcel code, the bytes' hash and when; the admin filters by code and user", async () => {
    const pdf = fakePdf('a1');
    await store('A1', pdf);
    await store('B2', fakePdf('b2'));
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    assert.equal((await download('A1', user.idToken)).statusCode, 200);
    assert.equal((await download('B2', user.idToken)).statusCode, 200);
    assert.equal((await download('A1', admin.idToken)).statusCode, 200);
    assert.equal((await download('A1', user.idToken)).statusCode, 200);
    await t.app.domain.auditWriter.flush();

    const byCode = await t.app.inject({ url: '/api/audit?parcelCode=A1', headers: t.bearer(admin.idToken) });
    assert.equal(byCode.statusCode, 200);
    const entries = byCode.json() as {
      actor: string;
      action: string;
      target: string;
      detail: string;
      at: string;
      count: number;
    }[];
    // One row per person and minute, with its count (two if the downloads straddled a minute's end).
    assert.deepEqual([...new Set(entries.map((entry) => entry.actor))].sort(), [
      'admin@example.com',
      'user@example.com',
    ]);
    const usersDownloads = entries.filter((entry) => entry.actor === 'user@example.com');
    assert.equal(
      usersDownloads.reduce((sum, entry) => sum + entry.count, 0),
      2,
    );
    for (const entry of entries) {
      assert.equal(entry.action, 'invoice.download');
      assert.equal(entry.detail, `sha256 ${sha256Of(pdf)}`);
      assert.ok(Date.now() - Date.parse(entry.at) < 60_000);
    }
    const byUser = await t.app.inject({ url: '/api/audit?user=user@example.com', headers: t.bearer(admin.idToken) });
    assert.deepEqual(
      byUser.json().map((entry: { target: string }) => entry.target),
      ['B2', 'A1'],
    );
    const both = await t.app.inject({
      url: '/api/audit?user=user@example.com&parcelCode=B2',
      headers: t.bearer(admin.idToken),
    });
    assert.equal(both.json().length, 1);
  });

  it('allows a user the configured downloads per hour, then 429 with Retry-After; others are not affected', async () => {
    await store('A1', fakePdf('a1'));
    const user = await t.createAccount('user@example.com');
    const other = await t.createAccount('other@example.com');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await download('A1', user.idToken)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    const refused = await download('A1', user.idToken);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await download('A1', other.idToken)).statusCode, 200);
  });

  it('stops a user guessing parcel codes: after the allowance of unknown codes, every download is refused for the hour', async () => {
    await store('A1', fakePdf('a1'));
    const user = await t.createAccount('user@example.com');
    const statuses = [];
    for (const code of ['G1', 'G2', 'G3', 'G4', 'A1']) statuses.push((await download(code, user.idToken)).statusCode);
    assert.deepEqual(statuses, [404, 404, 404, 429, 429]);
    await t.app.domain.auditWriter.flush();
    const guesses = await t.app.domain.audit.list({ limit: 10, offset: 0, user: 'user@example.com' });
    assert.deepEqual(
      guesses.map((entry) => [entry.target, entry.outcome]),
      [
        ['G3', 'refused'],
        ['G2', 'refused'],
        ['G1', 'refused'],
      ],
    );
  });

  it('stops guesses sent all at once as well: an attempt in flight holds its share of the allowance', async () => {
    const user = await t.createAccount('user@example.com');
    const codes = Array.from({ length: 10 }, (_unused, i) => `GUESS${i}`);
    const statuses = (await Promise.all(codes.map((code) => download(code, user.idToken)))).map(
      (response) => response.statusCode,
    );
    assert.equal(statuses.filter((status) => status === 404).length, 3, statuses.join(' '));
    assert.equal(statuses.filter((status) => status === 429).length, 7, statuses.join(' '));
  });

  it('answers 415, not 500, to an upload sent as JSON', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/invoices/A1',
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ pdf: 'nope' }),
    });
    assert.equal(response.statusCode, 415);
    assert.match(response.json().message, /Content-Type: application\/pdf/);
  });
});
