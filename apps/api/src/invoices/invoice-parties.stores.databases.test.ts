import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INVOICE_SORTS, type InvoiceSort } from '@portal/contract';
import { sql, type SQL } from 'drizzle-orm';
import { storedFacts } from '../../test/helpers/stored-facts.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { PARTY_IDS_NAMED } from './search-repository.ts';

const ACCOUNT = 'DE02120300000000202051';

/**
 * The seller and buyer search reads the invoices through the tables of distinct parties (migration 0017): these
 * check that the database keeps those tables right whoever writes, and that a name finds exactly what the
 * name column itself matches ("contains", any case), as the search did before the parties existed.
 */
describe('the parties behind the seller and buyer search', () => {
  // Many searches in a row by one person: what is tested here is what they find, not the allowance.
  const t = useTestApp({ env: { RATE_LIMIT_INVOICE_SEARCHES_PER_MINUTE: '10000' } });

  const rows = async <T>(query: SQL) => ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  let sequence = 0;
  const record = (parcelCode: string, sellerName: string | null, buyerName: string | null, extra = {}) =>
    t.domain.invoices.recordVersion({
      parcelCode,
      sha256: `${(++sequence).toString(16).padStart(8, '0')}${'a'.repeat(56)}`,
      size: 100,
      uploadedBy: 'test',
      format: 'cii',
      facts: storedFacts(ACCOUNT, { sellerName, buyerName, ...extra }),
    });
  const partyOf = async (parcelCode: string) => {
    const [row] = await rows<{ seller_id: number | null; buyer_id: number | null }>(
      sql`select seller_id, buyer_id from invoices where parcel_code = ${parcelCode}`,
    );
    return row;
  };

  it('gives every invoice of one name the same party, and a name its own party once', async () => {
    await record('P-1', 'Nordfracht AG', 'Weber Bau 4242 GmbH');
    await record('P-2', 'Nordfracht AG', 'Koch Pharma 17 GmbH');
    await record('P-3', 'Rhein Express KG', 'Weber Bau 4242 GmbH');
    // Another case is another name, as the column holds it; a plain PDF names no party.
    await record('P-4', 'NORDFRACHT AG', null);
    await t.domain.invoices.recordVersion({
      parcelCode: 'P-5',
      sha256: 'f'.repeat(64),
      size: 10,
      uploadedBy: 'test',
    });
    const sellers = await rows<{ id: number; name: string }>(
      sql`select id, name from invoice_sellers order by name collate "C"`,
    );
    assert.deepEqual(
      sellers.map((row) => row.name),
      ['NORDFRACHT AG', 'Nordfracht AG', 'Rhein Express KG'],
    );
    const buyers = await rows<{ name: string }>(sql`select name from invoice_buyers order by name collate "C"`);
    assert.deepEqual(
      buyers.map((row) => row.name),
      ['Koch Pharma 17 GmbH', 'Weber Bau 4242 GmbH'],
    );
    const [p1, p2, p3, p4, p5] = await Promise.all(['P-1', 'P-2', 'P-3', 'P-4', 'P-5'].map(partyOf));
    assert.equal(p1!.seller_id, p2!.seller_id);
    assert.equal(p1!.buyer_id, p3!.buyer_id);
    assert.notEqual(p1!.seller_id, p4!.seller_id);
    assert.deepEqual(p5, { seller_id: null, buyer_id: null });
  });

  it('keeps a party as it was named: a new version with another name points at that name, the old party stays', async () => {
    await record('R-1', 'Alpen Cargo GmbH', 'Becker Textil GmbH');
    await record('R-2', 'Alpen Cargo GmbH', 'Becker Textil GmbH');
    const before = await partyOf('R-1');
    // A new version of R-1 names another buyer: a new party, while R-2 keeps the one they shared.
    await record('R-1', 'Alpen Cargo GmbH', 'Becker Textil und Mode GmbH');
    const after = await partyOf('R-1');
    assert.equal(after!.seller_id, before!.seller_id);
    assert.notEqual(after!.buyer_id, before!.buyer_id);
    assert.equal((await partyOf('R-2'))!.buyer_id, before!.buyer_id);
    const names = await rows<{ id: number; name: string }>(sql`select id, name from invoice_buyers order by id`);
    assert.deepEqual(names, [
      { id: before!.buyer_id, name: 'Becker Textil GmbH' },
      { id: after!.buyer_id, name: 'Becker Textil und Mode GmbH' },
    ]);
    // A write that bypasses the portal (a script, the release before) still gets its ids from the names.
    await t.database.db.execute(sql`update invoices set buyer_name = 'Becker Textil GmbH' where parcel_code = 'R-1'`);
    assert.equal((await partyOf('R-1'))!.buyer_id, before!.buyer_id);
    await t.database.db.execute(sql`update invoices set buyer_id = null where parcel_code = 'R-1'`);
    assert.equal((await partyOf('R-1'))!.buyer_id, before!.buyer_id);
  });

  it('lets concurrent ingestions of one new name share one party', async () => {
    const codes = Array.from({ length: 12 }, (_, index) => `C-${index}`);
    const outcomes = await Promise.all(
      codes.map((code, index) => record(code, `Seller ${index % 2}`, 'Brand New Buyer GmbH')),
    );
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      codes.map(() => 'created'),
    );
    const buyers = await rows<{ id: number }>(sql`select id from invoice_buyers where name = 'Brand New Buyer GmbH'`);
    assert.equal(buyers.length, 1);
    const sellers = await rows<{ n: number }>(sql`select count(*)::int as n from invoice_sellers`);
    assert.equal(sellers[0]!.n, 2);
    for (const code of codes) assert.equal((await partyOf(code))!.buyer_id, buyers[0]!.id, code);
  });

  it('finds by seller and buyer exactly what the names themselves match, in every order, with other filters', async () => {
    const sellers = ['Nordfracht AG', 'Rhein Express KG', 'Müller & Söhne GmbH', 'Fifty%Off_Logistik'];
    const buyers = ['Weber Bau 4242 GmbH', 'Weber Bau 424 GmbH', 'weber technik', 'Koch Pharma 17 GmbH', 'KOCH bau'];
    for (let index = 0; index < 24; index++) {
      await record(`S-${String(index).padStart(2, '0')}`, sellers[index % 4]!, buyers[index % 5]!, {
        issueDate: `2025-0${1 + (index % 9)}-1${index % 10}`,
        totalGross: `${100 + ((index * 37) % 50)}.00`,
      });
    }
    const finance = await t.createAccount('money@example.com', { finance: true });
    const ORDER: Record<InvoiceSort, SQL> = {
      '-received': sql`uploaded_at desc, parcel_code desc`,
      received: sql`uploaded_at asc, parcel_code asc`,
      '-issued': sql`issue_date desc nulls last, parcel_code desc`,
      issued: sql`issue_date asc nulls last, parcel_code asc`,
      '-amount': sql`total_gross desc nulls last, parcel_code desc`,
      amount: sql`total_gross asc nulls last, parcel_code asc`,
    };
    const like = (text: string) => `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
    const cases: { seller?: string; buyer?: string; amountMin?: string }[] = [
      { seller: 'nordfracht' },
      { seller: 'NORDFRACHT ag' },
      { seller: 'ress k' },
      { seller: 'müller & s' },
      { seller: 'MÜLLER' },
      { seller: '50%' },
      { seller: 'fifty%off_' },
      { seller: 'ty%' },
      { seller: 'zzz' },
      { buyer: 'weber bau 4242' },
      { buyer: 'weber bau 424' },
      { buyer: 'WEBER' },
      { buyer: 'bau' },
      { buyer: '17 g' },
      { seller: 'rhein', buyer: 'bau' },
      { seller: 'gmbh', buyer: 'koch', amountMin: '120' },
    ];
    for (const search of cases) {
      const reference = await rows<{ parcel_code: string }>(sql`select parcel_code from invoices where
        ${search.seller ? sql`seller_name ilike ${like(search.seller)}` : sql`true`}
        and ${search.buyer ? sql`buyer_name ilike ${like(search.buyer)}` : sql`true`}
        and ${search.amountMin ? sql`total_gross >= ${search.amountMin}` : sql`true`}
        order by uploaded_at desc, parcel_code desc`);
      const referenceCodes = reference.map((row) => row.parcel_code);
      for (const sort of INVOICE_SORTS) {
        const query = new URLSearchParams({ ...search, sort, limit: '5' });
        const pages: string[] = [];
        let total = 0;
        for (let offset = 0; offset < Math.max(referenceCodes.length, 1); offset += 5) {
          query.set('offset', String(offset));
          const response = await t.app.inject({ url: `/api/invoices?${query}`, headers: t.bearer(finance.idToken) });
          assert.equal(response.statusCode, 200, response.body);
          const body = response.json() as { items: { parcelCode: string }[]; total: number };
          pages.push(...body.items.map((item) => item.parcelCode));
          total = body.total;
        }
        const ordered = await rows<{ parcel_code: string }>(
          sql`select parcel_code from invoices where parcel_code = any(${`{${referenceCodes.join(',')}}`}::text[])
              order by ${ORDER[sort]}`,
        );
        assert.deepEqual(
          pages,
          ordered.map((row) => row.parcel_code),
          `${query}`,
        );
        assert.equal(total, referenceCodes.length, `${query}`);
      }
    }
    // Shapes the name search must not miss: every invoice of 'Weber Bau 4242 GmbH' and of 'Weber Bau 424 GmbH'
    // contains "weber bau 424"; only the first contains "weber bau 4242".
    const [rare, wider] = await Promise.all(
      ['weber bau 4242', 'Weber BAU 424'].map(async (buyer) => {
        const response = await t.app.inject({
          url: `/api/invoices?${new URLSearchParams({ buyer })}`,
          headers: t.bearer(finance.idToken),
        });
        return (response.json() as { total: number }).total;
      }),
    );
    assert.deepEqual([rare, wider], [5, 10]);
  });

  it('matches a name shared by more parties than it names by id through a subquery, with the same result', async () => {
    await t.database.db.execute(
      sql`insert into invoice_buyers (name) select 'Bulk Buyer ' || n from generate_series(1, ${PARTY_IDS_NAMED + 5}) as n`,
    );
    await record('B-1', 'Seller', 'Bulk Buyer 7');
    await record('B-2', 'Seller', 'Bulk Buyer 10001');
    await record('B-3', 'Seller', 'Other Buyer');
    const finance = await t.createAccount('money@example.com', { finance: true });
    const found = async (buyer: string) => {
      const response = await t.app.inject({
        url: `/api/invoices?${new URLSearchParams({ buyer })}`,
        headers: t.bearer(finance.idToken),
      });
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as { items: { parcelCode: string }[] }).items.map((item) => item.parcelCode);
    };
    assert.deepEqual(await found('bulk buyer'), ['B-2', 'B-1']);
    assert.deepEqual(await found('buyer 1000'), ['B-2']);
  });
});
