import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { useTestApp } from '../../test/helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';

/** A hybrid, two XML-only invoices and a plain PDF. */
const INVOICES: [code: string, file: string, type: string][] = [
  ['FX-1', 'facturx-en16931.pdf', 'application/pdf'],
  ['UBL_2', 'xrechnung-ubl.xml', 'application/xml'],
  ['CII3', 'xrechnung-cii.xml', 'application/xml'],
  ['PLAIN4', 'plain.pdf', 'application/pdf'],
];

interface Item {
  parcelCode: string;
  validation?: string | null;
}

describe('the Invoices page: sums of a whole search, amounts within their currency, the EN 16931 check', () => {
  const t = useTestApp({
    env: { INGEST_TOKEN, INVOICE_READ_TIMEOUT_MS: '120000', RATE_LIMIT_INVOICE_SEARCHES_PER_MINUTE: '40' },
  });

  async function ingestAll() {
    for (const [code, file, type] of INVOICES) {
      const stored = await t.app.inject({
        method: 'PUT',
        url: `/api/invoices/${code}`,
        payload: await readEInvoiceFixture(file),
        headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': type },
      });
      assert.equal(stored.statusCode, 201, stored.body);
    }
  }
  /** Known terms in place of the fixtures' own: two euro invoices, one in kroner, the plain PDF with none. */
  async function setTerms() {
    const terms: [string, string, string, string][] = [
      ['FX-1', 'EUR', '100.10', '2026-01-15'],
      ['UBL_2', 'EUR', '200.25', '2026-02-03'],
      ['CII3', 'NOK', '5000.00', '2026-01-20'],
    ];
    for (const [code, currency, total, issued] of terms) {
      await t.database.db.execute(sql`
        update invoices set currency = ${currency}, total_gross = ${total}, issue_date = ${issued},
          seller_name = 'Acme Freight'
        where parcel_code = ${code}`);
    }
  }
  const get = (idToken: string, url: string) => t.app.inject({ url: `/api${url}`, headers: t.bearer(idToken) });
  const codes = (response: { json(): unknown }) =>
    (response.json() as { items: Item[] }).items.map((item) => item.parcelCode);

  it('sums the whole search per currency and per month of issue, never across currencies', async () => {
    await ingestAll();
    await setTerms();
    const finance = await t.createAccount('money@example.com', { finance: true });
    const all = await get(finance.idToken, '/invoices/search/summary');
    assert.equal(all.statusCode, 200, all.body);
    assert.equal(all.headers['cache-control'], 'no-store');
    assert.deepEqual(all.json(), {
      currencies: [
        { currency: 'EUR', total: '300.35', count: 2 },
        { currency: 'NOK', total: '5000.00', count: 1 },
      ],
      months: [
        { currency: 'EUR', month: '2026-01', total: '100.10', count: 1 },
        { currency: 'EUR', month: '2026-02', total: '200.25', count: 1 },
        { currency: 'NOK', month: '2026-01', total: '5000.00', count: 1 },
      ],
      withoutAmount: 1,
    });

    // The search's filters, every one of them: a date range, a name (matched through the parties), a format.
    const february = await get(finance.idToken, '/invoices/search/summary?issuedFrom=2026-02-01');
    assert.deepEqual(february.json(), {
      currencies: [{ currency: 'EUR', total: '200.25', count: 1 }],
      months: [{ currency: 'EUR', month: '2026-02', total: '200.25', count: 1 }],
      withoutAmount: 0,
    });
    const acme = (await get(finance.idToken, '/invoices/search/summary?seller=acme')).json();
    assert.deepEqual(
      acme.currencies.map((sum: { currency: string }) => sum.currency),
      ['EUR', 'NOK'],
    );
    assert.equal(acme.withoutAmount, 0);
    const plain = (await get(finance.idToken, '/invoices/search/summary?format=pdf')).json();
    assert.deepEqual(plain, { currencies: [], months: [], withoutAmount: 1 });

    // An invoice with an amount but no issue date is in its currency's total and in no month.
    await t.database.db.execute(sql`update invoices set issue_date = null where parcel_code = 'UBL_2'`);
    const undated = (await get(finance.idToken, '/invoices/search/summary?parcelCode=UBL')).json();
    assert.deepEqual(undated, {
      currencies: [{ currency: 'EUR', total: '200.25', count: 1 }],
      months: [],
      withoutAmount: 0,
    });

    // Audited as a search, named as sums.
    await t.app.domain.auditWriter.flush();
    const entries = await t.app.domain.audit.list({ limit: 50, offset: 0 });
    const details = entries.filter((entry) => entry.action === 'invoice.search').map((entry) => entry.detail ?? '');
    assert.ok(
      details.some((detail) => detail === 'sums: no filter; 4 invoices'),
      details.join(' | '),
    );
  });

  it('answers only the finance role, and refuses a bad filter or a page with a reason', async () => {
    const user = await t.createAccount('user@example.com');
    const admin = await t.createAccount('boss@example.com', { admin: true });
    assert.equal((await t.app.inject({ url: '/api/invoices/search/summary' })).statusCode, 401);
    for (const who of [user, admin]) {
      const refused = await get(who.idToken, '/invoices/search/summary');
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().message, /You do not have permission/);
    }
    const finance = await t.createAccount('money@example.com', { finance: true });
    const cases: [string, RegExp][] = [
      ['?seller=ab', /at least 3 letters/],
      ['?issuedFrom=2026-03-01&issuedTo=2026-02-01', /must not be after/],
      ['?validation=broken', /validation/],
      ['?sort=amount', /sort/],
      ['?offset=50', /offset/],
    ];
    for (const [query, message] of cases) {
      const refused = await get(finance.idToken, `/invoices/search/summary${query}`);
      assert.equal(refused.statusCode, 400, query);
      assert.match(refused.body, message, query);
    }
  });

  it('orders amounts within their currency: euros together, then kroner, whichever way', async () => {
    await ingestAll();
    await setTerms();
    const finance = await t.createAccount('money@example.com', { finance: true });
    assert.deepEqual(codes(await get(finance.idToken, '/invoices?sort=-amount')), ['UBL_2', 'FX-1', 'CII3', 'PLAIN4']);
    assert.deepEqual(codes(await get(finance.idToken, '/invoices?sort=amount')), ['FX-1', 'UBL_2', 'CII3', 'PLAIN4']);
    // A name with few matches is read and sorted another way (materialized): the same order.
    assert.deepEqual(codes(await get(finance.idToken, '/invoices?sort=-amount&seller=acme')), [
      'UBL_2',
      'FX-1',
      'CII3',
    ]);
    assert.deepEqual(codes(await get(finance.idToken, '/invoices?sort=amount&seller=acme')), ['FX-1', 'UBL_2', 'CII3']);
  });

  it('shows and filters by the stored EN 16931 check; a plain PDF has none', async () => {
    await ingestAll();
    const finance = await t.createAccount('money@example.com', { finance: true });
    const items = (await get(finance.idToken, '/invoices')).json().items as Item[];
    for (const item of items) {
      const facts = (await get(finance.idToken, `/invoices/${item.parcelCode}`)).json();
      assert.equal(item.validation, facts.validation?.status ?? null, item.parcelCode);
    }
    assert.equal(items.find((item) => item.parcelCode === 'PLAIN4')?.validation, null);
    assert.ok(items.filter((item) => item.validation).length >= 3, JSON.stringify(items));

    // One of each, as stored: the filter matches the stored status and nothing else.
    const statuses: [string, string][] = [
      ['FX-1', 'valid'],
      ['UBL_2', 'warnings'],
      ['CII3', 'invalid'],
    ];
    for (const [code, status] of statuses) {
      await t.database.db.execute(sql`
        update invoices set facts = jsonb_set(facts, '{validation,status}', to_jsonb(${status}::text))
        where parcel_code = ${code}`);
    }
    for (const [code, status] of statuses) {
      const found = await get(finance.idToken, `/invoices?validation=${status}`);
      assert.deepEqual(codes(found), [code], status);
      assert.equal((found.json().items as Item[])[0]?.validation, status);
    }
    const invalidSums = (await get(finance.idToken, '/invoices/search/summary?validation=invalid')).json();
    assert.equal(
      invalidSums.currencies.reduce((n: number, sum: { count: number }) => n + sum.count, 0),
      1,
    );
  });
});

describe('the sums of a search cost what the search cost, and nothing more', () => {
  const t = useTestApp({ env: { RATE_LIMIT_INVOICE_SEARCHES_PER_MINUTE: '2' } });
  const call = (idToken: string, url: string) => t.app.inject({ url: `/api${url}`, headers: t.bearer(idToken) });
  async function searchEntries(email: string) {
    await t.app.domain.auditWriter.flush();
    const entries = await t.app.domain.audit.list({ limit: 50, offset: 0, user: email });
    return entries
      .filter((entry) => entry.action === 'invoice.search')
      .map((entry) => `${entry.outcome}: ${entry.detail ?? ''}`)
      .sort();
  }

  it('spends one search and writes one audit entry for a search and its sums, as the Invoices page asks', async () => {
    const finance = await t.createAccount('money@example.com', { finance: true });
    for (const query of ['?seller=acme', '?seller=nord']) {
      assert.equal((await call(finance.idToken, `/invoices${query}&sort=-amount&limit=25`)).statusCode, 200);
      assert.equal((await call(finance.idToken, `/invoices/search/summary${query}`)).statusCode, 200, query);
    }
    // Two searches, each with its sums: the allowance of two is spent, not four times over.
    const refused = await call(finance.idToken, '/invoices?seller=third');
    assert.equal(refused.statusCode, 429);
    assert.match(refused.json().message, /searched the invoices 2 times this minute/);
    assert.deepEqual(await searchEntries('money@example.com'), [
      'ok: seller="acme"; 0 results',
      'ok: seller="nord"; 0 results',
      'refused: search allowance spent; seller="third"',
    ]);
  });

  it('spends for sums asked on their own: with no search, for another filter, or twice for one search', async () => {
    const finance = await t.createAccount('money@example.com', { finance: true });
    const other = await t.createAccount('other@example.com', { finance: true });
    // Someone else's search of the same filter pays for nobody's sums but their own.
    assert.equal((await call(other.idToken, '/invoices?seller=acme')).statusCode, 200);
    assert.equal((await call(finance.idToken, '/invoices/search/summary?seller=acme')).statusCode, 200);
    assert.equal((await call(finance.idToken, '/invoices?seller=nord')).statusCode, 200);
    assert.equal((await call(finance.idToken, '/invoices/search/summary?seller=nord')).statusCode, 200);
    // Spent: the search paid for one sums call, and another filter's sums were never paid for.
    for (const url of ['/invoices/search/summary?seller=nord', '/invoices/search/summary?seller=nordic']) {
      const refused = await call(finance.idToken, url);
      assert.equal(refused.statusCode, 429, url);
      assert.match(refused.json().message, /searched the invoices 2 times this minute/);
    }
    assert.deepEqual(await searchEntries('money@example.com'), [
      'ok: seller="nord"; 0 results',
      'ok: sums: seller="acme"; 0 invoices',
      'refused: sums: search allowance spent; seller="nord"',
      'refused: sums: search allowance spent; seller="nordic"',
    ]);
  });
});
