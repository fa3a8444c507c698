import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AFRelationship, PDFDocument } from '@cantoo/pdf-lib';
import { filesUnder, invoiceVersionsOf, sha256Of } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { readInvoice } from './e-invoice/read-invoice.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const fixture = readEInvoiceFixture;
const service = { authorization: `Bearer ${INGEST_TOKEN}` };

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('e-invoices: ingestion, facts, XML and the rendering', () => {
  const t = useTestApp({
    env: { INGEST_TOKEN, RATE_LIMIT_DOWNLOADS_PER_HOUR: '8', RATE_LIMIT_UNKNOWN_PARCELS_PER_HOUR: '3' },
  });

  const put = (parcelCode: string, body: Uint8Array, type = 'application/pdf') =>
    t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload: Buffer.from(body),
      headers: { ...service, 'content-type': type },
    });
  const get = (url: string, idToken: string) => t.app.inject({ url, headers: t.bearer(idToken) });
  const user = () => t.createAccount('user@example.com');

  it('takes a Factur-X PDF as it is, serves its facts, the PDF and the attached XML', async () => {
    const pdf = await fixture('facturx-en16931.pdf');
    const stored = await put('FX1', pdf);
    assert.equal(stored.statusCode, 201);
    assert.deepEqual(stored.json(), {
      parcelCode: 'FX1',
      sha256: sha256Of(pdf),
      size: pdf.length,
      status: 'created',
      format: 'facturx',
      warnings: [],
    });
    const { idToken } = await user();
    const facts = await get('/api/invoices/FX1', idToken);
    assert.equal(facts.statusCode, 200);
    assert.equal(facts.headers['cache-control'], 'no-store');
    const body = facts.json();
    assert.deepEqual(
      {
        format: body.format,
        profileName: body.profileName,
        invoiceNumber: body.invoiceNumber,
        amountDue: body.amountDue,
        issueDate: body.issueDate,
        hasXml: body.hasXml,
        pdfIsRendering: body.pdfIsRendering,
      },
      {
        format: 'facturx',
        profileName: 'Factur-X EN 16931',
        invoiceNumber: '471102',
        amountDue: '529.87',
        issueDate: '2024-11-15',
        hasXml: true,
        pdfIsRendering: false,
      },
    );
    assert.deepEqual((await get('/api/invoice?parcelCode=FX1', idToken)).rawPayload, pdf, 'the original PDF');
    const xml = await get('/api/invoices/FX1/xml', idToken);
    assert.equal(xml.statusCode, 200);
    assert.match(String(xml.headers['content-type']), /^application\/xml/);
    assert.equal(xml.headers['content-disposition'], 'attachment; filename="FX1.xml"');
    assert.deepEqual(xml.rawPayload, Buffer.from((await readInvoice(pdf)).xml!), 'the attached XML, byte for byte');
  });

  it('keeps an XML-only invoice byte for byte as the record and shows a PDF rendering of it', async () => {
    const xml = await fixture('xrechnung-ubl.xml');
    const stored = await put('XR1', xml, 'application/xml');
    assert.equal(stored.statusCode, 201);
    assert.equal(stored.json().format, 'ubl');
    assert.equal(stored.json().sha256, sha256Of(xml));
    const [version] = await invoiceVersionsOf(t.database, 'XR1');
    assert.equal(version?.sha256, sha256Of(xml));
    assert.equal(version?.xmlSha256, sha256Of(xml));
    assert.ok(version?.renderingSha256, 'the rendering is a blob the row names');
    const rendering = await t.blobStore.open(version.renderingSha256);
    assert.ok(rendering);

    const { idToken } = await user();
    const pdf = await get('/api/invoice?parcelCode=XR1', idToken);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.deepEqual(pdf.rawPayload, await readAll(rendering.stream));
    assert.equal(pdf.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    const facts = (await get('/api/invoices/XR1', idToken)).json();
    assert.equal(facts.profileName, 'XRechnung 3.0');
    assert.equal(facts.buyerReference, '04011000-12345-03');
    assert.equal(facts.pdfIsRendering, true);
    assert.deepEqual((await get('/api/invoices/XR1/xml', idToken)).rawPayload, xml);
  });

  for (const [file, type] of [
    ['peppol-credit-note.xml', 'text/xml'],
    ['cii-en16931-three-rates.xml', 'application/octet-stream'],
  ] as const) {
    it(`takes ${file} sent as ${type}`, async () => {
      const response = await put('X1', await fixture(file), type);
      assert.equal(response.statusCode, 201);
      assert.ok(['ubl', 'cii'].includes(response.json().format));
    });
  }

  for (const [file, message] of [
    [
      'malformed-truncated.xml',
      /not a PDF, and not an XML e-invoice this portal reads: The XML is not well-formed: .*line \d+/,
    ],
    ['hostile-xxe.xml', /document type declaration \(DOCTYPE/],
    ['hostile-billion-laughs.xml', /DOCTYPE/],
    ['not-an-invoice.xml', /root element is "Order"/],
  ] as const) {
    it(`refuses ${file} with 400 naming the problem, storing nothing and auditing the refusal`, async () => {
      const before = await filesUnder(t.config.invoiceDir);
      const response = await put('BAD1', await fixture(file), 'application/xml');
      assert.equal(response.statusCode, 400);
      assert.match(response.json().message, message);
      assert.deepEqual(await filesUnder(t.config.invoiceDir), before);
      assert.equal(await t.app.domain.invoices.findByParcelCode('BAD1'), undefined);
      const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
      assert.deepEqual([entry?.action, entry?.outcome], ['invoice.ingest', 'refused']);
      assert.match(entry?.detail ?? '', /not-invoice/);
    });
  }

  it('stores a PDF whose attached XML is broken as a plain PDF, with a warning in the answer', async () => {
    const document = await PDFDocument.load(await fixture('plain.pdf'));
    await document.attach(Buffer.from('<rsm:CrossIndustryInvoice xmlns:rsm="urn:x"><unclosed>'), 'factur-x.xml', {
      mimeType: 'text/xml',
      afRelationship: AFRelationship.Alternative,
    });
    const pdf = await document.save();
    const response = await put('BROKEN1', pdf);
    assert.equal(response.statusCode, 201);
    assert.equal(response.json().format, 'pdf');
    assert.match(response.json().warnings[0], /"factur-x.xml" could not be read: The XML is not well-formed/);
    const { idToken } = await user();
    const facts = (await get('/api/invoices/BROKEN1', idToken)).json();
    assert.equal(facts.format, 'pdf');
    assert.equal(facts.invoiceNumber, null);
    assert.equal(facts.hasXml, false);
    const xml = await get('/api/invoices/BROKEN1/xml', idToken);
    assert.equal(xml.statusCode, 404);
    assert.match(xml.json().message, /plain PDF/);
  });

  it('answers a plain PDF with format "pdf" and nulls', async () => {
    await put('PLAIN1', await fixture('plain.pdf'));
    const { idToken } = await user();
    const facts = (await get('/api/invoices/PLAIN1', idToken)).json();
    assert.equal(facts.format, 'pdf');
    for (const term of ['profile', 'invoiceNumber', 'issueDate', 'amountDue', 'iban', 'lineCount']) {
      assert.equal(facts[term], null, term);
    }
  });

  it('audits and shows a replacement that changes the bank account or the amount due', async () => {
    const original = (await fixture('peppol-invoice.xml')).toString('utf8');
    await put('FRAUD1', Buffer.from(original), 'application/xml');
    // The same invoice, re-sent with a note: nothing to flag.
    const noted = original.replace('<cbc:Note>', '<cbc:Note>Re-sent. ');
    assert.equal((await put('FRAUD1', Buffer.from(noted), 'application/xml')).json().status, 'replaced');
    const { idToken } = await user();
    let facts = (await get('/api/invoices/FRAUD1', idToken)).json();
    assert.deepEqual([facts.bankDetailsChangedAt, facts.amountChangedAt], [null, null]);

    const rerouted = noted
      .replace('<cbc:ID>IBAN32423940</cbc:ID>', '<cbc:ID>GB33BUKB20201555555555</cbc:ID>')
      .replace(
        '<cbc:PayableAmount currencyID="EUR">1656.25</cbc:PayableAmount>',
        '<cbc:PayableAmount currencyID="EUR">1956.25</cbc:PayableAmount>',
      );
    assert.notEqual(rerouted, noted);
    await put('FRAUD1', Buffer.from(rerouted), 'application/xml');
    facts = (await get('/api/invoices/FRAUD1', idToken)).json();
    assert.ok(facts.bankDetailsChangedAt, 'bank details marked');
    assert.ok(facts.amountChangedAt, 'amount marked');
    assert.equal(facts.iban, 'GB33BUKB20201555555555');

    const entries = await t.app.domain.audit.list({ limit: 20, offset: 0 });
    const changed = entries.filter((entry) => entry.action.endsWith('-changed'));
    const withoutId = (detail: string | null) => detail?.replace(/ \(warning \d+\)$/, '');
    assert.deepEqual(changed.map((entry) => [entry.action, entry.target, withoutId(entry.detail)]).sort(), [
      ['invoice.amount-changed', 'FRAUD1', 'amount due 1656.25 EUR -> 1956.25 EUR'],
      ['invoice.bank-details-changed', 'FRAUD1', 'payment account …3940 -> …5555'],
    ]);

    // A later version that keeps the new account still shows when it changed.
    await put('FRAUD1', Buffer.from(rerouted.replace('Re-sent. ', 'Re-sent twice. ')), 'application/xml');
    const later = (await get('/api/invoices/FRAUD1', idToken)).json();
    assert.equal(later.bankDetailsChangedAt, facts.bankDetailsChangedAt);
  });

  it('serves the facts to signed-in users only, and 404 for an unknown code', async () => {
    await put('ACCESS1', await fixture('facturx-minimum.pdf'));
    assert.equal((await t.app.inject({ url: '/api/invoices/ACCESS1' })).statusCode, 401);
    const outsider = await t.createAccount('outsider@example.com', { allowlisted: false });
    assert.equal((await get('/api/invoices/ACCESS1', outsider.idToken)).statusCode, 401);
    const { idToken } = await user();
    const unknown = await get('/api/invoices/NOPE1', idToken);
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().message, 'No invoice was found for this parcel code.');
    assert.equal((await get('/api/invoices/bad%20code', idToken)).statusCode, 400);
  });

  it('needs a download allowance for the facts without spending one; the XML spends one', async () => {
    await put('LIMIT1', await fixture('facturx-basicwl.pdf'));
    const { idToken } = await user();
    for (let index = 0; index < 10; index += 1) {
      assert.equal((await get('/api/invoices/LIMIT1', idToken)).statusCode, 200, 'facts do not count');
    }
    const statuses = [];
    for (let index = 0; index < 5; index += 1) {
      statuses.push((await get('/api/invoice?parcelCode=LIMIT1', idToken)).statusCode);
      statuses.push((await get('/api/invoices/LIMIT1/xml', idToken)).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    assert.equal((await get('/api/invoices/LIMIT1', idToken)).statusCode, 429, 'none left: facts refused too');
  });

  it('counts unknown codes asked for through the facts against the guessing allowance', async () => {
    const { idToken } = await user();
    const statuses = [];
    for (let index = 0; index < 5; index += 1)
      statuses.push((await get(`/api/invoices/GUESS${index}`, idToken)).statusCode);
    assert.deepEqual(statuses, [404, 404, 404, 429, 429]);
  });

  for (const [part, url] of [
    ['PDF', (code: string) => `/api/invoice?parcelCode=${code}`],
    ['facts', (code: string) => `/api/invoices/${code}`],
    ['XML', (code: string) => `/api/invoices/${code}/xml`],
  ] as const) {
    it(`lets no more concurrent guesses through the ${part} than the guessing allowance`, async () => {
      const { idToken } = await user();
      // Sent at once: each must hold its unit before any of them is known to miss.
      const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => get(url(`RACE${index}`), idToken)));
      const statuses = answers.map((answer) => answer.statusCode).sort();
      assert.deepEqual(statuses, [404, 404, 404, 429, 429, 429, 429, 429]);
      assert.match(answers.find((answer) => answer.statusCode === 429)!.headers['retry-after'] as string, /^\d+$/);
    });
  }

  it('does not count a plain PDF without XML, nor a found invoice, against the guessing allowance', async () => {
    await put('PLAIN1', await fixture('plain.pdf'));
    const { idToken } = await user();
    for (let index = 0; index < 4; index += 1) {
      const answer = await get('/api/invoices/PLAIN1/xml', idToken);
      assert.equal(answer.statusCode, 404);
      assert.equal(answer.json().message, 'This invoice is a plain PDF: it has no e-invoice XML.');
    }
    const statuses = [];
    for (let index = 0; index < 4; index += 1)
      statuses.push((await get(`/api/invoices/MISS${index}`, idToken)).statusCode);
    assert.deepEqual(statuses, [404, 404, 404, 429], 'the whole allowance was left for unknown codes');
  });
});
