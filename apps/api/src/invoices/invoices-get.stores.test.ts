import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderDemoInvoicePdf } from '@portal/dev-stack/demo';
import { signUp } from '../../test/helpers/tokens.ts';
import { fakePdf, sha256Of } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';

describe('GET /api/invoice', () => {
  const t = useTestApp({ env: { INGEST_TOKEN } });

  async function store(parcelCode: string, bytes: Uint8Array) {
    const blob = await t.blobStore.put(bytes, { maxBytes: t.config.maxInvoiceBytes });
    await t.app.domain.invoices.recordVersion({ parcelCode, uploadedBy: 'test', ...blob });
  }

  it('streams the stored PDF byte for byte with the download headers', async () => {
    const pdf = await renderDemoInvoicePdf('PARCEL-1');
    await store('PARCEL-1', pdf);
    const user = await t.createAccount('user@example.com');
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=PARCEL-1', headers: t.bearer(user.idToken) });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/pdf');
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['content-disposition'], 'inline; filename="PARCEL-1.pdf"');
    assert.equal(Number(response.headers['content-length']), pdf.length);
    assert.equal(sha256Of(response.rawPayload), sha256Of(pdf));
  });

  it('serves admins too, and the current version after a replacement', async () => {
    await store('P2', fakePdf('first'));
    await store('P2', fakePdf('second'));
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=P2', headers: t.bearer(admin.idToken) });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.rawPayload, fakePdf('second'));
  });

  it('serves a replacement at once, though the previous version was just downloaded', async () => {
    const user = await t.createAccount('user@example.com');
    const url = '/api/invoice?parcelCode=P3';
    await store('P3', fakePdf('before'));
    assert.deepEqual((await t.app.inject({ url, headers: t.bearer(user.idToken) })).rawPayload, fakePdf('before'));
    await store('P3', fakePdf('after'));
    assert.deepEqual((await t.app.inject({ url, headers: t.bearer(user.idToken) })).rawPayload, fakePdf('after'));
  });

  it('streams an invoice too large to keep in memory, byte for byte', async () => {
    const big = fakePdf('large', 3 * 1024 * 1024);
    await store('LARGE1', big);
    const user = await t.createAccount('user@example.com');
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=LARGE1', headers: t.bearer(user.idToken) });
    assert.equal(response.statusCode, 200);
    assert.equal(Number(response.headers['content-length']), big.length);
    assert.equal(sha256Of(response.rawPayload), sha256Of(big));
  });

  it('answers 404 with a message when the code has no invoice', async () => {
    const user = await t.createAccount('user@example.com');
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=UNKNOWN1', headers: t.bearer(user.idToken) });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().message, 'No invoice was found for this parcel code.');
  });

  for (const [label, query] of [
    ['missing', ''],
    ['empty', '?parcelCode='],
    ['a path traversal', `?parcelCode=${encodeURIComponent('../etc/passwd')}`],
    ['a NUL byte', '?parcelCode=%00'],
    ['the text "%00"', '?parcelCode=%2500'],
    ['10 KB long', `?parcelCode=${'A'.repeat(10_240)}`],
    ['SQL', `?parcelCode=${encodeURIComponent("' OR 1=1 --")}`],
    ['given twice', '?parcelCode=A1&parcelCode=B2'],
  ] as const) {
    it(`answers 400 with a message when the code is ${label}`, async () => {
      await store('A1', fakePdf('a1'));
      const user = await t.createAccount('user@example.com');
      const response = await t.app.inject({ url: `/api/invoice${query}`, headers: t.bearer(user.idToken) });
      assert.equal(response.statusCode, 400);
      assert.equal(typeof response.json().message, 'string');
    });
  }

  it('answers 401 to an anonymous caller, before looking at the code', async () => {
    await store('A1', fakePdf('a1'));
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=A1' });
    assert.equal(response.statusCode, 401);
    assert.match(response.json().message, /sign in/);
  });

  it('answers 401 to a signed-in account that is not on the list, and audits it with its verified e-mail and uid', async () => {
    await store('A1', fakePdf('a1'));
    const outsider = await signUp('outsider@example.com');
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=A1', headers: t.bearer(outsider.idToken) });
    assert.equal(response.statusCode, 401);
    assert.match(response.json().message, /not allowed/);
    await t.app.domain.auditWriter.flush();
    const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
    assert.equal(entry?.outcome, 'refused');
    assert.equal(entry?.actor, 'outsider@example.com');
    assert.match(entry?.detail ?? '', new RegExp(`uid ${outsider.uid}`));
  });

  it('answers 401 to the ingestion service token: it may store invoices, not read them', async () => {
    await store('A1', fakePdf('a1'));
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=A1', headers: t.bearer(INGEST_TOKEN) });
    assert.equal(response.statusCode, 401);
  });

  it('refuses an account once it is removed from the list', async () => {
    await store('A1', fakePdf('a1'));
    const user = await t.createAccount('user@example.com');
    const url = '/api/invoice?parcelCode=A1';
    assert.equal((await t.app.inject({ url, headers: t.bearer(user.idToken) })).statusCode, 200);
    await t.app.domain.users.remove('user@example.com');
    assert.equal((await t.app.inject({ url, headers: t.bearer(user.idToken) })).statusCode, 401);
  });
});
