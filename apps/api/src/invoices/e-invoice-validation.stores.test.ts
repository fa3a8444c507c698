import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { useTestApp } from '../../test/helpers/test-app.ts';

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
  return { t, put, facts };
}

describe('e-invoices checked against EN 16931 at ingestion: flagged by default', () => {
  const { put, facts } = useIngestion();

  it('stores a valid invoice with a valid report in its facts', async () => {
    assert.equal((await put('VALID-1', await readEInvoiceFixture('xrechnung-ubl.xml'))).statusCode, 201);
    const { validation } = await facts('VALID-1');
    assert.equal(validation.status, 'valid');
    assert.deepEqual(validation.findings, []);
    assert.match(validation.rulesVersion, /^en16931-/);
  });

  it('stores an invalid invoice and reports each fatal finding with its rule, element, value and plain sentence', async () => {
    assert.equal((await put('INVALID-1', await invalidInvoice())).statusCode, 201);
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
});

describe('e-invoices checked against EN 16931 at ingestion: refused when the operator says so', () => {
  const { t, put, facts } = useIngestion('refuse');

  it('answers 400 with the fatal findings and stores nothing', async () => {
    const answer = await put('INVALID-2', await invalidInvoice());
    assert.equal(answer.statusCode, 400);
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
  const { put, facts } = useIngestion('accept');

  it('stores an invalid invoice and keeps no report', async () => {
    assert.equal((await put('INVALID-3', await invalidInvoice())).statusCode, 201);
    assert.equal((await facts('INVALID-3')).validation, null);
  });
});
