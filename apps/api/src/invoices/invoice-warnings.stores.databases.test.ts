import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InvoiceFacts } from '@portal/contract';
import { AFRelationship, PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { readInvoice } from './e-invoice/read-invoice.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const service = { authorization: `Bearer ${INGEST_TOKEN}` };
const fixture = readEInvoiceFixture;

const A = 'DE02120300000000202051';
const B = 'GB33BUKB20201555555555';

/** The Peppol fixture with these payee accounts (one payment means each; none: a means without one). */
async function ubl(options: { accounts: string[]; amount?: string; note?: string }): Promise<Buffer> {
  const original = (await fixture('peppol-invoice.xml')).toString('utf8');
  const means = (account: string | undefined) =>
    `<cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>${
      account ? `<cac:PayeeFinancialAccount><cbc:ID>${account}</cbc:ID></cac:PayeeFinancialAccount>` : ''
    }</cac:PaymentMeans>`;
  const allMeans = options.accounts.length === 0 ? means(undefined) : options.accounts.map(means).join('');
  const xml = original
    .replace(/<cac:PaymentMeans>[\s\S]*<\/cac:PaymentMeans>/, allMeans)
    .replace(
      '<cbc:PayableAmount currencyID="EUR">1656.25',
      `<cbc:PayableAmount currencyID="EUR">${options.amount ?? '1656.25'}`,
    )
    .replace('<cbc:Note>Payment within', `<cbc:Note>${options.note ?? ''}Payment within`);
  assert.notEqual(xml, original);
  return Buffer.from(xml);
}

/** A hybrid: a page that says `visibleText`, with the ZUGFeRD fixture's XML (payee account A) attached. */
async function hybrid(visibleText: string, pages = 1): Promise<Uint8Array> {
  const xml = (await readInvoice(await fixture('zugferd-xrechnung.pdf'))).xml;
  assert.ok(xml);
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  visibleText.split('\n').forEach((line, index) => page.drawText(line, { x: 50, y: 780 - index * 20, size: 11, font }));
  for (let more = 1; more < pages; more += 1) document.addPage([595, 842]);
  await document.attach(xml, 'factur-x.xml', { mimeType: 'text/xml', afRelationship: AFRelationship.Alternative });
  return document.save();
}

/** A plain PDF whose page draws each piece of text where it says, in the order given (x, y from the bottom left). */
async function plainPdf(...pieces: [text: string, x: number, y: number][]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  const font = await document.embedFont(StandardFonts.Helvetica);
  page.drawText('Invoice 4711 · Parcel transport November', { x: 50, y: 800, size: 11, font });
  for (const [text, x, y] of pieces) page.drawText(text, { x, y, size: 11, font });
  return document.save();
}

/** The same account, A, as people see it however the page lays it out. */
const LAYOUTS_OF_A: Record<string, [string, number, number][]> = {
  'on one line': [['Please pay to IBAN DE02 1203 0000 0000 2020 51', 50, 700]],
  'across two lines': [
    ['IBAN DE02 1203 0000', 50, 700],
    ['0000 2020 51', 50, 686],
  ],
  'in table cells drawn right to left': [
    ['0000 2020 51', 260, 700],
    ['DE02 1203 0000', 150, 700],
    ['IBAN', 50, 700],
  ],
  'one character at a time, spaced out': [...'DE02120300000000202051'].map((character, index) => [
    character,
    90 + index * 12,
    700,
  ]),
};

describe('the change guard: warnings that cannot be laundered, cleared by a second administrator', () => {
  const t = useTestApp({ env: { INGEST_TOKEN } });

  const put = (parcelCode: string, body: Uint8Array, headers: Record<string, string> = service) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload: Buffer.from(body),
      headers: { ...headers, 'content-type': body[0] === 0x3c ? 'application/xml' : 'application/pdf' },
    });
  const putOk = async (parcelCode: string, body: Uint8Array, headers?: Record<string, string>) => {
    const response = await put(parcelCode, body, headers);
    assert.ok([200, 201].includes(response.statusCode), response.body);
    return response.json<{ warnings: string[]; format: string }>();
  };
  const factsOf = async (parcelCode: string, idToken: string) => {
    const response = await t.app.inject({ url: `/api/invoices/${parcelCode}`, headers: t.bearer(idToken) });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<InvoiceFacts>();
  };
  const pending = async (parcelCode: string, idToken: string) =>
    (await factsOf(parcelCode, idToken)).warnings.map((warning) => `${warning.kind}: ${warning.detail}`);
  // What the ingestions wrote about the changes; the test's own reads (facts) are written by the audit writer's
  // next flush, a second later or not yet, so they are not counted either way.
  const notWarnings = new Set(['invoice.ingest', 'invoice.facts', 'invoice.download', 'invoice.download-xml']);
  const auditedWarnings = async (parcelCode: string) =>
    (await t.app.domain.audit.list({ limit: 100, offset: 0 }))
      .filter((entry) => entry.target === parcelCode && !notWarnings.has(entry.action))
      .map((entry) => `${entry.action} ${entry.outcome}: ${entry.detail}`)
      .reverse();

  it('v1 account A, v2 no account, v3 account B: both changes are raised, audited, and stay', async () => {
    await putOk('LAUNDER1', await ubl({ accounts: [A] }));
    await putOk('LAUNDER1', await ubl({ accounts: [] }));
    await putOk('LAUNDER1', await ubl({ accounts: [B] }));
    // A fourth version that repeats B raises nothing new and clears nothing.
    await putOk('LAUNDER1', await ubl({ accounts: [B], note: 'Re-sent. ' }));
    const { idToken } = await t.createAccount('user@example.com');
    assert.deepEqual(await pending('LAUNDER1', idToken), [
      'bank-details: payment account …2051 -> none',
      'bank-details: payment account …2051 -> …5555',
    ]);
    const facts = await factsOf('LAUNDER1', idToken);
    // Whole, for the reader to compare before paying: the detail masks them for the audit log.
    const amount = { amount: '1656.25', currency: 'EUR' };
    assert.deepEqual(
      facts.warnings.map((warning) => warning.change),
      [
        { before: { accounts: [A], ...amount }, after: { accounts: [], ...amount } },
        { before: { accounts: [A], ...amount }, after: { accounts: [B], ...amount } },
      ],
    );
    assert.ok(facts.bankDetailsChangedAt);
    assert.equal(facts.amountChangedAt, null);
    assert.deepEqual(await auditedWarnings('LAUNDER1'), [
      `invoice.bank-details-changed ok: payment account …2051 -> none (warning ${facts.warnings[0]?.id})`,
      `invoice.bank-details-changed ok: payment account …2051 -> …5555 (warning ${facts.warnings[1]?.id})`,
    ]);
  });

  it('a plain PDF neither clears an earlier warning nor resets the comparison, and is a warning itself', async () => {
    await putOk('LAUNDER2', await ubl({ accounts: [A] }));
    await putOk('LAUNDER2', await ubl({ accounts: [B], amount: '1956.25' }));
    await putOk('LAUNDER2', await fixture('plain.pdf'));
    const { idToken } = await t.createAccount('user@example.com');
    let facts = await factsOf('LAUNDER2', idToken);
    assert.equal(facts.format, 'pdf');
    assert.deepEqual(
      facts.warnings.map((warning) => warning.kind),
      ['bank-details', 'amount', 'e-invoice-removed'],
    );
    // Back to an e-invoice with account A: compared with B, the last account any version named.
    await putOk('LAUNDER2', await ubl({ accounts: [A], amount: '1956.25' }));
    facts = await factsOf('LAUNDER2', idToken);
    assert.deepEqual(
      facts.warnings.map((warning) => `${warning.kind}: ${warning.detail}`),
      [
        'bank-details: payment account …2051 -> …5555',
        'amount: amount due 1656.25 EUR -> 1956.25 EUR',
        'e-invoice-removed: ubl -> pdf',
        'bank-details: payment account …5555 -> …2051',
      ],
    );
    // The amount's warning says both amounts; the plain PDF's has nothing to compare.
    assert.deepEqual(facts.warnings[1]?.change, {
      before: { accounts: [A], amount: '1656.25', currency: 'EUR' },
      after: { accounts: [B], amount: '1956.25', currency: 'EUR' },
    });
    assert.equal(facts.warnings[2]?.change, undefined);
    assert.deepEqual(facts.warnings[3]?.change?.before.accounts, [B]);
    assert.deepEqual(facts.warnings[3]?.change?.after.accounts, [A]);
  });

  it('reads every payment means: a second account beside the first is a change of the set', async () => {
    await putOk('LAUNDER3', await ubl({ accounts: [A] }));
    await putOk('LAUNDER3', await ubl({ accounts: [A, B] }));
    const { idToken } = await t.createAccount('user@example.com');
    const facts = await factsOf('LAUNDER3', idToken);
    assert.deepEqual(facts.paymentAccounts, [A, B]);
    assert.equal(facts.iban, A, 'the first means is what it was');
    assert.deepEqual(await pending('LAUNDER3', idToken), ['bank-details: payment accounts …2051 -> …2051, …5555']);
  });

  it('flags a hybrid whose page shows an IBAN its XML does not name, and not one whose page agrees', async () => {
    const agrees = await putOk('HYBRID1', await hybrid(`Please pay to\nIBAN: DE02 1203 0000 0000 2020 51`));
    assert.equal(agrees.format, 'facturx');
    assert.deepEqual(agrees.warnings, []);
    await putOk('HYBRID2', await hybrid(`Please pay to\nIBAN: GB33 BUKB 2020 1555 5555 55 BIC BUKBGB22`));
    const { idToken } = await t.createAccount('user@example.com');
    assert.deepEqual(await pending('HYBRID1', idToken), []);
    assert.deepEqual(await pending('HYBRID2', idToken), ['visible-account: shown on the PDF, not in its XML: …5555']);
    const [entry] = await auditedWarnings('HYBRID2');
    assert.match(entry ?? '', /^invoice\.visible-account-mismatch ok: shown on the PDF, not in its XML: …5555/);
  });

  it('guards a plain PDF replaced by a plain PDF on the accounts its page shows, however it lays them out', async () => {
    const uploads = [];
    for (const pieces of Object.values(LAYOUTS_OF_A)) uploads.push(await putOk('PLAIN1', await plainPdf(...pieces)));
    assert.deepEqual(
      uploads.map((upload) => [upload.format, upload.warnings]),
      Object.values(LAYOUTS_OF_A).map(() => ['pdf', []]),
    );
    const { idToken } = await t.createAccount('user@example.com');
    assert.deepEqual(await pending('PLAIN1', idToken), [], 'the same account, four layouts: no warning');

    // Another account, in table cells, then the same one as a UK sort code and account number.
    await putOk('PLAIN1', await plainPdf(['Bank', 50, 700], ['GB33 BUKB 2020', 150, 700], ['1555 5555 55', 260, 700]));
    await putOk('PLAIN1', await plainPdf(['Sort code: 20-20-15', 50, 700], ['Account number: 5555 5555', 50, 686]));
    // Then a domestic account at that bank that is not the same one.
    await putOk('PLAIN1', await plainPdf(['Sort code: 20-20-15', 50, 700], ['Account number: 5555 5556', 50, 686]));
    assert.deepEqual(await pending('PLAIN1', idToken), [
      'bank-details: accounts shown …2051 -> …5555',
      'bank-details: accounts shown …5555 -> …5556',
    ]);
    const [first] = (await factsOf('PLAIN1', idToken)).warnings;
    assert.deepEqual(first?.change, {
      before: { accounts: [A], amount: null, currency: null },
      after: { accounts: [B], amount: null, currency: null },
    });
    const audited = await auditedWarnings('PLAIN1');
    assert.equal(audited.length, 2);
    assert.match(audited[0] ?? '', /^invoice\.bank-details-changed ok: accounts shown …2051 -> …5555 \(warning \d+\)$/);
  });

  it('holds a plain PDF against the e-invoice before it, and an e-invoice against the plain PDF before it', async () => {
    await putOk('PLAIN2', await ubl({ accounts: [A] }));
    await putOk('PLAIN2', await plainPdf(['IBAN', 50, 700], ['GB33 BUKB 2020 1555 5555 55', 150, 700]));
    await putOk('PLAIN3', await plainPdf(['IBAN DE02 1203 0000 0000 2020 51', 50, 700]));
    await putOk('PLAIN3', await ubl({ accounts: [B] }));
    const { idToken } = await t.createAccount('user@example.com');
    assert.deepEqual(await pending('PLAIN2', idToken), [
      'e-invoice-removed: ubl -> pdf',
      'bank-details: accounts shown …2051 -> …5555',
    ]);
    assert.deepEqual(await pending('PLAIN3', idToken), ['bank-details: accounts shown …2051 -> …5555']);
  });

  it('a hybrid whose text is not read (here: more pages than are read) is stored, and warned about', async () => {
    const stored = await putOk('HYBRID3', await hybrid('IBAN: DE02 1203 0000 0000 2020 51', 51));
    assert.equal(stored.format, 'facturx');
    assert.deepEqual(stored.warnings, [
      "The PDF's visible text could not be compared with its XML: it has 51 pages, more than the 50 read.",
    ]);
    const { idToken } = await t.createAccount('user@example.com');
    assert.deepEqual(await pending('HYBRID3', idToken), [
      "visible-text-unread: the PDF's text could not be read: it has 51 pages, more than the 50 read",
    ]);
  });

  it('is acknowledged by a second administrator only: the uploader is refused, both are audited', async () => {
    const uploader = await t.createAccount('uploader@example.com', { admin: true });
    const reviewer = await t.createAccount('reviewer@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    await putOk('ACK1', await ubl({ accounts: [A] }), t.bearer(uploader.idToken));
    await putOk('ACK1', await ubl({ accounts: [B] }), t.bearer(uploader.idToken));
    const [warning] = (await factsOf('ACK1', user.idToken)).warnings;
    assert.ok(warning);
    const acknowledge = (idToken: string, id: number | string = warning.id, code = 'ACK1') =>
      t.app.inject({
        method: 'POST',
        url: `/api/invoices/${code}/warnings/${id}/acknowledge`,
        headers: t.bearer(idToken),
      });

    const byUploader = await acknowledge(uploader.idToken);
    assert.equal(byUploader.statusCode, 403);
    assert.match(byUploader.json().message, /another administrator must acknowledge it/);
    assert.equal((await acknowledge(user.idToken)).statusCode, 403, 'not an admin');
    assert.equal((await acknowledge(reviewer.idToken, warning.id, 'OTHER1')).statusCode, 404, 'not this invoice’s');
    assert.equal((await acknowledge(reviewer.idToken, 'x')).statusCode, 400);
    assert.equal((await factsOf('ACK1', user.idToken)).warnings.length, 1, 'still there');

    const byReviewer = await acknowledge(reviewer.idToken);
    assert.equal(byReviewer.statusCode, 200, byReviewer.body);
    const acknowledged = byReviewer.json<Record<string, unknown>>();
    // The answer says which warning was cleared; the whole old and new values are the facts' to show.
    const { change: _change, ...cleared } = warning;
    assert.deepEqual(
      { ...acknowledged, acknowledgedAt: typeof acknowledged.acknowledgedAt },
      { ...cleared, acknowledgedAt: 'string', acknowledgedBy: 'reviewer@example.com' },
    );
    const after = await factsOf('ACK1', user.idToken);
    assert.deepEqual([after.warnings, after.bankDetailsChangedAt], [[], null]);
    assert.equal((await acknowledge(reviewer.idToken)).statusCode, 409, 'once');

    const acknowledgements = (await auditedWarnings('ACK1')).filter((entry) => entry.includes('acknowledged'));
    assert.deepEqual(acknowledgements, [
      `invoice.warning-acknowledged refused: warning ${warning.id}: uploader`,
      `invoice.warning-acknowledged ok: bank-details: payment account …2051 -> …5555 (warning ${warning.id})`,
      `invoice.warning-acknowledged refused: warning ${warning.id}: acknowledged`,
    ]);
    const actors = (await t.app.domain.audit.list({ limit: 100, offset: 0 }))
      .filter((entry) => entry.action === 'invoice.warning-acknowledged')
      .map((entry) => entry.actor);
    // Four: the one for another invoice's code (404) is there too, under that code.
    assert.deepEqual(actors.sort(), [
      'reviewer@example.com',
      'reviewer@example.com',
      'reviewer@example.com',
      'uploader@example.com',
    ]);

    // A later change is a new warning: the acknowledgement covered only what the reviewer saw.
    await putOk('ACK1', await ubl({ accounts: [A] }), t.bearer(uploader.idToken));
    assert.deepEqual(await pending('ACK1', user.idToken), ['bank-details: payment account …5555 -> …2051']);
  });

  it('lets any administrator acknowledge what the ingestion service uploaded', async () => {
    await putOk('ACK2', await ubl({ accounts: [A] }));
    await putOk('ACK2', await fixture('plain.pdf'));
    const reviewer = await t.createAccount('reviewer@example.com', { admin: true });
    const [warning] = (await factsOf('ACK2', reviewer.idToken)).warnings;
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/invoices/ACK2/warnings/${warning?.id}/acknowledge`,
      headers: t.bearer(reviewer.idToken),
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().kind, 'e-invoice-removed');
  });
});
