import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { signUp } from '../../test/helpers/tokens.ts';
import { fakePdf, invoiceVersionsOf, sha256Of } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const MAX_BYTES = 64 * 1024;
const pdfHeaders = { 'content-type': 'application/pdf' };

describe('PUT /api/invoices/:parcelCode', () => {
  // The races below send six uploads at once: more than the default limit of uploads taken in together.
  const t = useTestApp({ env: { INGEST_TOKEN, MAX_INVOICE_BYTES: String(MAX_BYTES), MAX_CONCURRENT_INGESTS: '8' } });

  const admin = () => t.createAccount('admin@example.com', { admin: true });
  const put = (parcelCode: string, payload: Buffer | Readable | string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload,
      headers: { ...pdfHeaders, ...headers },
    });

  it('stores a new invoice: 201, the contract body, a row, a version, an audit entry and the bytes', async () => {
    const { idToken } = await admin();
    const pdf = fakePdf('new');
    const response = await put('PARCEL_1', pdf, t.bearer(idToken));
    assert.equal(response.statusCode, 201);
    assert.deepEqual(response.json(), {
      parcelCode: 'PARCEL_1',
      sha256: sha256Of(pdf),
      size: pdf.length,
      status: 'created',
      format: 'pdf',
      // The test's PDF has no structure to look into: stored all the same, and the answer says so.
      warnings: [response.json().warnings[0]],
    });
    assert.match(response.json().warnings[0], /^No invoice XML could be looked for in the PDF/);
    const row = await t.app.domain.invoices.findByParcelCode('PARCEL_1');
    assert.equal(row?.uploadedBy, 'admin@example.com');
    assert.equal((await invoiceVersionsOf(t.database, 'PARCEL_1')).length, 1);
    const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
    assert.deepEqual(
      [entry?.actor, entry?.action, entry?.target, entry?.outcome],
      ['admin@example.com', 'invoice.ingest', 'PARCEL_1', 'ok'],
    );
    const user = await t.createAccount('user@example.com');
    const download = await t.app.inject({ url: '/api/invoice?parcelCode=PARCEL_1', headers: t.bearer(user.idToken) });
    assert.deepEqual(download.rawPayload, pdf);
  });

  it('answers 200 unchanged for the same bytes (no new version) and 200 replaced for new ones (history kept)', async () => {
    const { idToken } = await admin();
    await put('P1', fakePdf('v1'), t.bearer(idToken));
    const again = await put('P1', fakePdf('v1'), t.bearer(idToken));
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().status, 'unchanged');
    const replaced = await put('P1', fakePdf('v2'), t.bearer(idToken));
    assert.equal(replaced.statusCode, 200);
    assert.equal(replaced.json().status, 'replaced');
    const versions = await invoiceVersionsOf(t.database, 'P1');
    assert.deepEqual(
      versions.map((version) => version.sha256),
      [sha256Of(fakePdf('v1')), sha256Of(fakePdf('v2'))],
    );
    assert.equal((await t.app.domain.invoices.findByParcelCode('P1'))?.sha256, sha256Of(fakePdf('v2')));
  });

  it('accepts application/octet-stream and a streamed body of unknown length', async () => {
    const { idToken } = await admin();
    const pdf = fakePdf('streamed', 20_000);
    const response = await put('P1', Readable.from([pdf.subarray(0, 3), pdf.subarray(3)]), {
      ...t.bearer(idToken),
      'content-type': 'application/octet-stream',
    });
    assert.equal(response.statusCode, 201);
    assert.equal(response.json().sha256, sha256Of(pdf));
  });

  it('accepts the service token and records "service" as the uploader', async () => {
    const response = await put('P1', fakePdf('svc'), t.bearer(INGEST_TOKEN));
    assert.equal(response.statusCode, 201);
    assert.equal((await t.app.domain.invoices.findByParcelCode('P1'))?.uploadedBy, 'service');
  });

  for (const [label, headers] of [
    ['no credentials', async () => ({})],
    ['a wrong service token', async () => t.bearer(`${INGEST_TOKEN.slice(0, -1)}X`)],
    ['a service token of another length', async () => t.bearer('short')],
    ['an account that is not on the list', async () => t.bearer((await signUp('outsider@example.com')).idToken)],
  ] as const) {
    it(`answers 401 to ${label} and stores nothing`, async () => {
      const response = await put('P1', fakePdf('x'), await headers());
      assert.equal(response.statusCode, 401);
      assert.equal(typeof response.json().message, 'string');
      assert.equal(await t.app.domain.invoices.findByParcelCode('P1'), undefined);
    });
  }

  it('answers 403 to an ordinary user', async () => {
    const user = await t.createAccount('user@example.com');
    const response = await put('P1', fakePdf('x'), t.bearer(user.idToken));
    assert.equal(response.statusCode, 403);
    assert.equal(await t.app.domain.invoices.findByParcelCode('P1'), undefined);
  });

  for (const [label, code, status] of [
    ['a path traversal', encodeURIComponent('../etc/passwd'), 400],
    ['a NUL byte', '%00', 400],
    ['the text "%00"', '%2500', 400],
    ['SQL', encodeURIComponent("' OR 1=1 --"), 400],
    ['65 characters long', 'A'.repeat(65), 400],
    // The router refuses parameters over its maxParamLength before any handler runs.
    ['10 KB long', 'A'.repeat(10_240), 414],
  ] as const) {
    it(`answers ${status} when the code is ${label}, and stores nothing`, async () => {
      const { idToken } = await admin();
      const before = await t.invoiceStore.contents();
      const response = await put(code, fakePdf('x'), t.bearer(idToken));
      assert.equal(response.statusCode, status);
      assert.equal(typeof response.json().message, 'string');
      assert.deepEqual(await t.invoiceStore.contents(), before);
    });
  }

  for (const [label, body] of [
    ['HTML named like a PDF', '<!doctype html><html><body>%PDF-1.7 not really</body></html>'],
    ['empty', ''],
    ['shorter than the PDF magic', '%PDF'],
  ] as const) {
    it(`answers 400 to a body that is ${label}, leaving no file and no row`, async () => {
      const { idToken } = await admin();
      const before = await t.invoiceStore.contents();
      const response = await put('P1', body, t.bearer(idToken));
      assert.equal(response.statusCode, 400);
      assert.match(response.json().message, /PDF/);
      assert.deepEqual(await t.invoiceStore.contents(), before);
      assert.equal(await t.app.domain.invoices.findByParcelCode('P1'), undefined);
    });
  }

  it('answers 415 to another content type', async () => {
    const { idToken } = await admin();
    const response = await put('P1', '<html></html>', { ...t.bearer(idToken), 'content-type': 'text/html' });
    assert.equal(response.statusCode, 415);
    assert.equal(typeof response.json().message, 'string');
  });

  for (const [label, payload] of [
    ['declared by Content-Length', () => fakePdf('big', MAX_BYTES + 1)],
    ['streamed without a length', () => Readable.from([fakePdf('big', MAX_BYTES + 4096)])],
  ] as const) {
    it(`answers 413 to a body over the limit ${label}, leaving no file and no row`, async () => {
      const { idToken } = await admin();
      const before = await t.invoiceStore.contents();
      const response = await put('BIG', payload(), t.bearer(idToken));
      assert.equal(response.statusCode, 413);
      assert.match(response.json().message, /larger than the limit/);
      assert.deepEqual(await t.invoiceStore.contents(), before);
      assert.equal(await t.app.domain.invoices.findByParcelCode('BIG'), undefined);
      const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
      assert.equal(entry?.outcome, 'refused');
    });
  }

  it('accepts a body of exactly the limit', async () => {
    const { idToken } = await admin();
    const response = await put('EXACT', fakePdf('exact', MAX_BYTES), t.bearer(idToken));
    assert.equal(response.statusCode, 201);
    assert.equal(response.json().size, MAX_BYTES);
  });

  it('ends consistent after concurrent uploads of one code: a version per distinct upload, the row names stored bytes', async () => {
    const { idToken } = await admin();
    const bodies = Array.from({ length: 6 }, (_, i) => fakePdf(`concurrent-${i}`, 30_000));
    const responses = await Promise.all(bodies.map((body) => put('RACE', body, t.bearer(idToken))));
    const statuses = responses.map((response) => response.json().status).sort();
    assert.deepEqual(statuses, ['created', 'replaced', 'replaced', 'replaced', 'replaced', 'replaced']);
    const row = await t.app.domain.invoices.findByParcelCode('RACE');
    const versions = await invoiceVersionsOf(t.database, 'RACE');
    assert.equal(versions.length, 6);
    // The last version recorded is the current one, and its bytes are there to serve.
    assert.equal(row?.sha256, versions.at(-1)?.sha256);
    const user = await t.createAccount('user@example.com');
    const download = await t.app.inject({ url: '/api/invoice?parcelCode=RACE', headers: t.bearer(user.idToken) });
    assert.equal(sha256Of(download.rawPayload), row?.sha256);
  });

  it('ends consistent after concurrent uploads of the same bytes: one created, the rest unchanged', async () => {
    const { idToken } = await admin();
    const body = fakePdf('same', 30_000);
    const before = await t.invoiceStore.contents();
    const responses = await Promise.all(Array.from({ length: 4 }, () => put('SAME', body, t.bearer(idToken))));
    assert.deepEqual(responses.map((response) => response.json().status).sort(), [
      'created',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    assert.equal((await invoiceVersionsOf(t.database, 'SAME')).length, 1);
    // Exactly one file more: the blob, stored once; no temporary file left behind by the losers.
    assert.equal((await t.invoiceStore.contents()).length, before.length + 1);
  });
});
