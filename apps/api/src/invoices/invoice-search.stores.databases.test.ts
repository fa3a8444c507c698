import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrollPasskey } from '@portal/dev-stack/passkeys';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { zipEntries } from '../../test/helpers/zip-entries.ts';
import { csvCell, maskedAccount } from './invoice-zip.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const fixture = readEInvoiceFixture;
const service = { authorization: `Bearer ${INGEST_TOKEN}` };

/** Four invoices of every kind: a hybrid, two XML-only ones and a plain PDF. */
const INVOICES: [code: string, file: string, type: string][] = [
  ['FX-1', 'facturx-en16931.pdf', 'application/pdf'],
  ['UBL_2', 'xrechnung-ubl.xml', 'application/xml'],
  ['CII3', 'xrechnung-cii.xml', 'application/xml'],
  ['PLAIN4', 'plain.pdf', 'application/pdf'],
];

describe('the Invoices page: search and ZIP, for the finance role only', () => {
  // The reading budget is not what these tests check: on a busy machine four readings in a row (a worker
  // started for each) took longer than its 10 s.
  const t = useTestApp({
    env: { INGEST_TOKEN, RATE_LIMIT_DOWNLOADS_PER_HOUR: '10', INVOICE_READ_TIMEOUT_MS: '120000' },
  });

  async function ingestAll() {
    for (const [code, file, type] of INVOICES) {
      const stored = await t.app.inject({
        method: 'PUT',
        url: `/api/invoices/${code}`,
        payload: await fixture(file),
        headers: { ...service, 'content-type': type },
      });
      assert.equal(stored.statusCode, 201, stored.body);
    }
  }
  const search = (idToken: string, query = '') =>
    t.app.inject({ url: `/api/invoices${query}`, headers: t.bearer(idToken) });
  const codes = (response: { json(): unknown }) =>
    (response.json() as { items: { parcelCode: string }[] }).items.map((item) => item.parcelCode);

  it('refuses everyone without the finance role, administrators included, and says why', async () => {
    const user = await t.createAccount('user@example.com');
    const admin = await t.createAccount('boss@example.com', { admin: true });
    assert.equal((await t.app.inject({ url: '/api/invoices' })).statusCode, 401);
    for (const who of [user, admin]) {
      const refused = await search(who.idToken);
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().message, /You do not have permission/);
      const zip = await t.app.inject({
        method: 'POST',
        url: '/api/invoices/zip',
        payload: { parcelCodes: ['FX-1'] },
        headers: t.bearer(who.idToken),
      });
      assert.equal(zip.statusCode, 403);
    }
    // Today's access is untouched: one invoice per code.
    await ingestAll();
    assert.equal(
      (await t.app.inject({ url: '/api/invoice?parcelCode=FX-1', headers: t.bearer(user.idToken) })).statusCode,
      200,
    );
  });

  it('validates every field with a message a person can act on', async () => {
    const finance = await t.createAccount('money@example.com', { finance: true });
    const cases: [string, RegExp][] = [
      ['?seller=ab', /at least 3 letters/],
      ['?issuedFrom=2024-02-30', /does not exist/],
      ['?issuedFrom=2024-03-01&issuedTo=2024-02-01', /must not be after/],
      ['?amountMin=ten', /An amount is a number/],
      ['?amountMin=100&amountMax=5', /must not be above/],
      ['?format=docx', /format/],
      ['?offset=10001', /narrow the search/],
      ['?limit=101', /limit/],
      ['?parcelCode=a%25b', /A parcel code is letters/],
      ['?colour=red', /colour/],
    ];
    for (const [query, message] of cases) {
      const refused = await search(finance.idToken, query);
      assert.equal(refused.statusCode, 400, query);
      assert.match(refused.body, message, query);
    }
  });

  it('finds invoices by code, number, seller, buyer, dates, amount, format; sorts and pages', async () => {
    await ingestAll();
    const finance = await t.createAccount('money@example.com', { finance: true });
    const all = await search(finance.idToken);
    assert.equal(all.statusCode, 200);
    assert.equal(all.headers['cache-control'], 'no-store');
    assert.deepEqual(
      { total: all.json().total, totalIsAtLeast: all.json().totalIsAtLeast },
      { total: 4, totalIsAtLeast: false },
    );
    // Newest first by default.
    assert.deepEqual(codes(all), ['PLAIN4', 'CII3', 'UBL_2', 'FX-1']);
    const plain = all.json().items.find((item: { parcelCode: string }) => item.parcelCode === 'PLAIN4');
    assert.deepEqual([plain.format, plain.invoiceNumber, plain.totalGross, plain.hasXml], ['pdf', null, null, false]);

    const facts = (await t.app.inject({ url: '/api/invoices/FX-1', headers: t.bearer(finance.idToken) })).json();
    assert.ok(facts.sellerName && facts.buyerName && facts.invoiceNumber && facts.issueDate && facts.totalGross);
    const fx = all.json().items.find((item: { parcelCode: string }) => item.parcelCode === 'FX-1');
    assert.deepEqual(
      [fx.invoiceNumber, fx.sellerName, fx.issueDate, Number(fx.totalGross), fx.hasXml, fx.format],
      [facts.invoiceNumber, facts.sellerName, facts.issueDate, Number(facts.totalGross), true, 'facturx'],
    );
    // The due date (BT-9) as each invoice's facts have it, and no unacknowledged amount change.
    for (const item of all.json().items as { parcelCode: string; dueDate: string | null; amountChanged: boolean }[]) {
      const itsFacts = (
        await t.app.inject({ url: `/api/invoices/${item.parcelCode}`, headers: t.bearer(finance.idToken) })
      ).json();
      assert.equal(item.dueDate, itsFacts.dueDate ?? null, item.parcelCode);
      assert.equal(item.amountChanged, false, item.parcelCode);
    }

    // A code's start in any case; "_" is a letter of the code, not a wildcard.
    assert.deepEqual(codes(await search(finance.idToken, '?parcelCode=fx')), ['FX-1']);
    assert.deepEqual(codes(await search(finance.idToken, '?parcelCode=UBL_')), ['UBL_2']);
    assert.deepEqual(codes(await search(finance.idToken, '?parcelCode=UB_')), []);
    const number = encodeURIComponent(facts.invoiceNumber.slice(0, 3).toLowerCase());
    assert.ok(codes(await search(finance.idToken, `?invoiceNumber=${number}`)).includes('FX-1'));
    const seller = encodeURIComponent(facts.sellerName.slice(1, 6).toUpperCase());
    assert.ok(codes(await search(finance.idToken, `?seller=${seller}`)).includes('FX-1'));
    const buyer = encodeURIComponent(facts.buyerName.slice(0, 4));
    assert.ok(codes(await search(finance.idToken, `?buyer=${buyer}`)).includes('FX-1'));
    assert.deepEqual(
      codes(await search(finance.idToken, `?issuedFrom=${facts.issueDate}&issuedTo=${facts.issueDate}&parcelCode=FX`)),
      ['FX-1'],
    );
    assert.deepEqual(
      codes(
        await search(finance.idToken, `?amountMin=${facts.totalGross}&amountMax=${facts.totalGross}&parcelCode=FX`),
      ),
      ['FX-1'],
    );
    assert.deepEqual(codes(await search(finance.idToken, '?format=pdf')), ['PLAIN4']);
    assert.deepEqual(codes(await search(finance.idToken, '?bankDetailsChanged=true')), []);
    assert.deepEqual(codes(await search(finance.idToken, '?seller=zzzqqq')), []);

    // The plain PDF has no amount: last, whichever way the amounts go.
    const byAmount = codes(await search(finance.idToken, '?sort=amount'));
    const byAmountDown = codes(await search(finance.idToken, '?sort=-amount'));
    assert.equal(byAmount.at(-1), 'PLAIN4');
    assert.equal(byAmountDown.at(-1), 'PLAIN4');
    assert.deepEqual(byAmount.slice(0, 3), byAmountDown.slice(0, 3).reverse());
    const second = await search(finance.idToken, '?sort=received&limit=2&offset=2');
    assert.deepEqual([codes(second), second.json().total], [['CII3', 'PLAIN4'], 4]);
  });

  it('downloads chosen invoices as one ZIP: PDFs, XML where there is one, a CSV of facts; one audit line', async () => {
    await ingestAll();
    const finance = await t.createAccount('money@example.com', { finance: true });
    const zip = await t.app.inject({
      method: 'POST',
      url: '/api/invoices/zip',
      payload: { parcelCodes: ['FX-1', 'PLAIN4', 'UBL_2', 'FX-1', 'NOSUCH'] },
      headers: t.bearer(finance.idToken),
    });
    assert.equal(zip.statusCode, 200, zip.body);
    assert.equal(zip.headers['content-type'], 'application/zip');
    assert.match(
      String(zip.headers['content-disposition']),
      /^attachment; filename="invoices-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    assert.equal(zip.headers['x-invoice-count'], '3');
    const expected = Number(zip.headers['x-expected-bytes']);
    assert.ok(
      expected >= zip.rawPayload.length * 0.8 && expected <= zip.rawPayload.length * 2,
      `${expected} vs ${zip.rawPayload.length}`,
    );
    const entries = zipEntries(zip.rawPayload);
    assert.deepEqual(
      entries.map((entry) => entry.name),
      ['invoices.csv', 'FX-1/FX-1.pdf', 'FX-1/FX-1.xml', 'PLAIN4/PLAIN4.pdf', 'UBL_2/UBL_2.pdf', 'UBL_2/UBL_2.xml'],
    );
    const pdf = await t.app.inject({ url: '/api/invoice?parcelCode=FX-1', headers: t.bearer(finance.idToken) });
    assert.deepEqual(entries[1]!.data, pdf.rawPayload);
    assert.deepEqual(entries[5]!.data, await fixture('xrechnung-ubl.xml'));
    const csv = entries[0]!.data
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(csv.length, 4);
    assert.match(csv[0]!, /^Parcel code,Format,Profile,Invoice number,/);
    assert.match(csv[1]!, /^FX-1,facturx,/);
    assert.match(csv[2]!, /^PLAIN4,pdf,,,/);

    // Audited as one action naming each invoice; 3 of the 10 downloads spent (and 1 by the PDF above).
    const audit = await t.app.domain.audit.list({ limit: 10, offset: 0, user: 'money@example.com' });
    const zipRows = audit.filter((row) => row.action === 'invoice.download-zip');
    assert.deepEqual(
      zipRows.map((row) => [row.outcome, row.target, row.detail]),
      [['ok', '3 invoices', 'FX-1 PLAIN4 UBL_2']],
    );
    // 6 left: a ZIP of every result (4) passes, the next one does not, and says how many are left.
    const all = await t.app.inject({
      method: 'POST',
      url: '/api/invoices/zip',
      payload: { search: { seller: '' }, sort: 'received' },
      headers: t.bearer(finance.idToken),
    });
    assert.equal(all.statusCode, 200, all.body);
    assert.equal(all.headers['x-invoice-count'], '4');
    assert.equal(zipEntries(all.rawPayload)[1]!.name, 'FX-1/FX-1.pdf');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/invoices/zip',
      payload: { parcelCodes: ['FX-1', 'UBL_2', 'CII3'] },
      headers: t.bearer(finance.idToken),
    });
    assert.equal(refused.statusCode, 429);
    assert.match(refused.json().message, /This ZIP holds 3 invoices, and you may download 2 more this hour/);
    assert.ok(Number(refused.headers['retry-after']) > 0);
  });

  it('refuses a ZIP of nothing, of more than 500, or of codes none of which exists', async () => {
    const finance = await t.createAccount('money@example.com', { finance: true });
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/invoices/zip', payload, headers: t.bearer(finance.idToken) });
    assert.equal((await post({ parcelCodes: [] })).statusCode, 400);
    const tooMany = await post({ parcelCodes: Array.from({ length: 501 }, (_, index) => `P${index}`) });
    assert.equal(tooMany.statusCode, 400);
    assert.match(tooMany.body, /at most 500/);
    assert.equal((await post({ parcelCodes: ['A'], search: {} })).statusCode, 400);
    const none = await post({ parcelCodes: ['NOSUCH'] });
    assert.equal(none.statusCode, 404);
    assert.equal(none.json().message, 'None of the chosen invoices was found.');
  });

  it('lets an administrator give and take the finance role, audited, seen at once, with a passkey to set up', async () => {
    await ingestAll();
    const admin = await t.createAccount('boss@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    assert.equal((await search(user.idToken)).statusCode, 403);
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: '/api/users/user@example.com', payload, headers: t.bearer(admin.idToken) });
    assert.equal((await patch({})).statusCode, 400);
    const granted = await patch({ finance: true });
    assert.equal(granted.statusCode, 200);
    assert.deepEqual([granted.json().finance, granted.json().admin], [true, false]);
    // The role reads every invoice: the password alone does not open it, the code from the grant sets up a passkey.
    const enrollment = granted.json().enrollment as { code: string; expiresAt: string };
    assert.match(enrollment.code, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    assert.equal((await search(user.idToken)).json().code, 'step-up-required');
    await enrollPasskey(t.callAs(user.idToken), user.passkey, { enrollmentCode: enrollment.code });
    assert.equal((await search(user.idToken)).statusCode, 200);
    const lookup = await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(user.idToken) });
    assert.equal(lookup.json().finance, true);
    assert.equal((await patch({ finance: false })).json().finance, false);
    assert.equal((await search(user.idToken)).statusCode, 403);
    const unknown = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/nobody@example.com',
      payload: { finance: true },
      headers: t.bearer(admin.idToken),
    });
    assert.equal(unknown.statusCode, 404);
    const audit = await t.app.domain.audit.list({ limit: 10, offset: 0, user: 'boss@example.com' });
    assert.deepEqual(
      audit
        .filter((row) => row.action.includes('finance'))
        .map((row) => [row.action, row.outcome, row.target])
        .reverse(),
      [
        ['users.grant-finance', 'ok', 'user@example.com'],
        ['users.remove-finance', 'ok', 'user@example.com'],
        ['users.grant-finance', 'refused', 'nobody@example.com'],
      ],
    );
  });

  it('keeps a spreadsheet from running what an invoice says', () => {
    assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    for (const start of ['+', '-', '@', '\t', '\r', ';', ','])
      assert.equal(csvCell(`${start}1`).replace(/^"|"$/g, '').startsWith(`'${start}`), true);
    // A spreadsheet that splits on ";" reads ";=1+1" as an empty cell and a formula: neither happens.
    assert.equal(csvCell(';=1+1'), `"';=1+1"`);
    assert.equal(csvCell('Müller; Söhne'), '"Müller; Söhne"');
    assert.equal(csvCell('ACME, Inc.'), '"ACME, Inc."');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell('plain'), 'plain');
  });

  it('lists payment accounts in the CSV by their last four characters only', () => {
    assert.equal(maskedAccount('DE02 1203 0000 0000 2020 51'), '******************2051');
    assert.equal(maskedAccount('GB33BUKB20201555555555'), '******************5555');
    assert.equal(maskedAccount('1234'), '1234');
  });
});
