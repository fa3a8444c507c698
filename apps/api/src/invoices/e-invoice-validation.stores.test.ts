import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { RULES_VERSION } from './e-invoice/validation/rules/index.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { zipEntries } from '../../test/helpers/zip-entries.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const service = { authorization: `Bearer ${INGEST_TOKEN}` };

/** A public XRechnung UBL invoice whose amount due no longer follows from its totals (BR-CO-16). */
async function invalidInvoice(): Promise<Buffer> {
  const xml = (await readEInvoiceFixture('xrechnung-ubl.xml')).toString('utf8');
  const changed = xml.replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]*/, '$1999999.99');
  assert.notEqual(changed, xml, 'the sample states an amount due to change');
  return Buffer.from(changed);
}

function useIngestion(policy?: string) {
  const t = useTestApp({ env: { INGEST_TOKEN, ...(policy ? { EINVOICE_INVALID: policy } : {}) } });
  const put = (parcelCode: string, body: Uint8Array) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload: Buffer.from(body),
      headers: { ...service, 'content-type': 'application/xml' },
    });
  const facts = async (parcelCode: string) => {
    const { idToken } = await t.createAccount('user@example.com');
    const answer = await t.app.inject({ url: `/api/invoices/${parcelCode}`, headers: t.bearer(idToken) });
    assert.equal(answer.statusCode, 200);
    return answer.json();
  };
  /** portal_einvoice_invalid_total for one outcome on this instance. */
  const counted = async (outcome: string) =>
    (await t.app.domain.metrics.invalidEInvoices.get()).values.find((entry) => entry.labels.outcome === outcome)?.value;
  return { t, put, facts, counted };
}

describe('e-invoices checked against EN 16931 at ingestion: flagged by default', () => {
  const { t, put, facts, counted } = useIngestion();

  it('stores a valid invoice with a valid report in its facts, and counts no invalid arrival', async () => {
    assert.equal((await put('VALID-1', await readEInvoiceFixture('xrechnung-ubl.xml'))).statusCode, 201);
    for (const outcome of ['flagged', 'refused', 'accepted']) assert.equal(await counted(outcome), 0);
    const { validation } = await facts('VALID-1');
    assert.equal(validation.status, 'valid');
    assert.deepEqual(validation.findings, []);
    assert.match(validation.rulesVersion, /^en16931-/);
  });

  it('stores an invalid invoice, counts it flagged, and reports each fatal finding with its rule, element, value and plain sentence', async () => {
    const before = (await counted('flagged'))!;
    assert.equal((await put('INVALID-1', await invalidInvoice())).statusCode, 201);
    assert.equal(await counted('flagged'), before + 1);
    const { validation } = await facts('INVALID-1');
    assert.equal(validation.status, 'invalid');
    const finding = validation.findings.find((entry: { rule: string }) => entry.rule === 'BR-CO-16');
    assert.equal(finding.flag, 'fatal');
    assert.equal(finding.element, 'BT-115');
    assert.match(finding.message, /Amount due for payment \(BT-115\)/);
    assert.match(finding.value, /^999999\.99 \(the parts make /);
    assert.ok(finding.plain);
  });

  it('keeps no report for a plain PDF', async () => {
    assert.equal((await put('PLAIN-1', await readEInvoiceFixture('plain.pdf'))).statusCode, 201);
    assert.equal((await facts('PLAIN-1')).validation, null);
  });

  it("lists each version's own outcome in the history, the rules an invalid one breaks, no value found", async () => {
    assert.equal((await put('HIST-1', await readEInvoiceFixture('xrechnung-ubl.xml'))).statusCode, 201);
    assert.equal((await put('HIST-1', await invalidInvoice())).statusCode, 200);
    assert.equal((await put('HIST-1', await readEInvoiceFixture('plain.pdf'))).statusCode, 200);
    const { idToken } = await t.createAccount('user@example.com');
    const answer = await t.app.inject({ url: '/api/invoices/HIST-1/versions', headers: t.bearer(idToken) });
    assert.equal(answer.statusCode, 200);
    const [plain, invalid, valid] = answer.json().versions;
    assert.equal(plain.validation, null);
    assert.deepEqual(invalid.validation, {
      status: 'invalid',
      rulesVersion: RULES_VERSION,
      findingCount: 1,
      fatalRules: ['BR-CO-16'],
    });
    assert.equal(valid.validation.status, 'valid');
    // The value a finding quotes ("999999.99 (the parts make …)") stays with the current version's facts.
    assert.doesNotMatch(answer.body, /the parts make/);
  });

  it("puts each invoice's outcome and fatal rules in the ZIP's CSV, empty for a plain PDF", async () => {
    assert.equal((await put('CSV-OK', await readEInvoiceFixture('xrechnung-cii.xml'))).statusCode, 201);
    assert.equal((await put('CSV-BAD', await invalidInvoice())).statusCode, 201);
    assert.equal((await put('CSV-PDF', await readEInvoiceFixture('plain.pdf'))).statusCode, 201);
    const finance = await t.createAccount('money@example.com', { finance: true });
    const zip = await t.app.inject({
      method: 'POST',
      url: '/api/invoices/zip',
      payload: { parcelCodes: ['CSV-OK', 'CSV-BAD', 'CSV-PDF'] },
      headers: t.bearer(finance.idToken),
    });
    assert.equal(zip.statusCode, 200, zip.body);
    const [header, ...rows] = zipEntries(zip.rawPayload)[0]!
      .data.toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = header!.indexOf('Validation');
    assert.ok(column > 0, header!.join(','));
    assert.deepEqual(
      rows.map((row) => [row[0], row[column]]),
      [
        ['CSV-OK', 'valid'],
        ['CSV-BAD', 'invalid: BR-CO-16'],
        ['CSV-PDF', ''],
      ],
    );
  });
});

describe('e-invoices checked against EN 16931 at ingestion: refused when the operator says so', () => {
  const { t, put, facts, counted } = useIngestion('refuse');

  it('answers 400 with the fatal findings, counts it refused, and stores nothing', async () => {
    const before = (await counted('refused'))!;
    const answer = await put('INVALID-2', await invalidInvoice());
    assert.equal(answer.statusCode, 400);
    assert.equal(await counted('refused'), before + 1);
    assert.match(answer.json().message, /breaks 1 of the EN 16931 business rules .*BR-CO-16: Amount due for payment/);
    const { idToken } = await t.createAccount('user@example.com');
    const stored = await t.app.inject({ url: '/api/invoices/INVALID-2', headers: t.bearer(idToken) });
    assert.equal(stored.statusCode, 404);
  });

  it('still takes a valid invoice', async () => {
    assert.equal((await put('VALID-2', await readEInvoiceFixture('peppol-invoice.xml'))).statusCode, 201);
    assert.equal((await facts('VALID-2')).validation.status, 'valid');
  });
});

describe('e-invoices checked against EN 16931 at ingestion: accepted without a report', () => {
  const { put, facts, counted } = useIngestion('accept');

  it('stores an invalid invoice, counts it accepted, and keeps no report', async () => {
    const before = (await counted('accepted'))!;
    assert.equal((await put('INVALID-3', await invalidInvoice())).statusCode, 201);
    assert.equal(await counted('accepted'), before + 1);
    assert.equal((await facts('INVALID-3')).validation, null);
  });
});
