import {
  INVOICE_COUNT_LIMIT,
  type InvoiceFilter,
  type InvoiceSearchSummary,
  type InvoiceSort,
  type InvoiceSummary,
  type InvoiceValidationStatus,
} from '@portal/contract';
import { and, asc, desc, eq, gte, ilike, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { invoiceBuyers, invoices, invoiceSellers } from '../db/schema.ts';

/** Escapes LIKE wildcards: a parcel code may hold "_", which must match itself, not any letter. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (match) => `\\${match}`);

/**
 * Each order ends on the parcel code, so a page boundary never falls between equal values differently twice;
 * each has an index of its own (both directions, invoices without the term last), migrations 0011 and 0022.
 * Amounts are ordered within their currency (currencies A to Z, either way): 900 NOK is not between two
 * euro amounts.
 */
/** The orders a page is read in: the search's, and the parcel code's (see pageOrderOf). */
type PageOrder = InvoiceSort | 'code' | '-code';
const ORDER: Record<PageOrder, SQL[]> = {
  code: [asc(invoices.parcelCode)],
  '-code': [desc(invoices.parcelCode)],
  '-received': [desc(invoices.uploadedAt), desc(invoices.parcelCode)],
  received: [asc(invoices.uploadedAt), asc(invoices.parcelCode)],
  '-issued': [sql`${invoices.issueDate} desc nulls last`, desc(invoices.parcelCode)],
  issued: [sql`${invoices.issueDate} asc nulls last`, asc(invoices.parcelCode)],
  '-amount': [
    sql`${invoices.currency} asc nulls last`,
    sql`${invoices.totalGross} desc nulls last`,
    desc(invoices.parcelCode),
  ],
  amount: [
    sql`${invoices.currency} asc nulls last`,
    sql`${invoices.totalGross} asc nulls last`,
    asc(invoices.parcelCode),
  ],
};
/** The same orders by the names of a materialized set of matches (a name with few matches). */
const ORDER_OF_MATCHES: Record<PageOrder, SQL> = {
  code: sql`parcel_code asc`,
  '-code': sql`parcel_code desc`,
  '-received': sql`uploaded_at desc, parcel_code desc`,
  received: sql`uploaded_at asc, parcel_code asc`,
  '-issued': sql`issue_date desc nulls last, parcel_code desc`,
  issued: sql`issue_date asc nulls last, parcel_code asc`,
  '-amount': sql`currency asc nulls last, total_gross desc nulls last, parcel_code desc`,
  amount: sql`currency asc nulls last, total_gross asc nulls last, parcel_code asc`,
};

const summaryColumns = {
  parcelCode: invoices.parcelCode,
  format: invoices.format,
  invoiceNumber: invoices.invoiceNumber,
  issueDate: invoices.issueDate,
  sellerName: invoices.sellerName,
  buyerName: invoices.buyerName,
  totalGross: invoices.totalGross,
  currency: invoices.currency,
  uploadedAt: invoices.uploadedAt,
  xmlSha256: invoices.xmlSha256,
  bankDetailsChangedAt: invoices.bankDetailsChangedAt,
  amountChangedAt: invoices.amountChangedAt,
  // Read from the stored facts (BT-9), one small value of the row's JSON, rather than a column of its own.
  dueDate: sql<string | null>`${invoices.facts}->>'dueDate'`,
  validation: sql<InvoiceValidationStatus | null>`${invoices.facts}->'validation'->>'status'`,
};
type SummaryRow = Pick<typeof invoices.$inferSelect, Exclude<keyof typeof summaryColumns, 'dueDate' | 'validation'>> & {
  dueDate: string | null;
  validation: InvoiceValidationStatus | null;
};

const toSummary = (row: SummaryRow): InvoiceSummary => ({
  parcelCode: row.parcelCode,
  format: row.format,
  invoiceNumber: row.invoiceNumber,
  issueDate: row.issueDate,
  sellerName: row.sellerName,
  buyerName: row.buyerName,
  totalGross: row.totalGross,
  currency: row.currency,
  uploadedAt: row.uploadedAt.toISOString(),
  hasXml: row.xmlSha256 !== null,
  bankDetailsChanged: row.bankDetailsChangedAt !== null,
  amountChanged: row.amountChangedAt !== null,
  dueDate: row.dueDate,
  validation: row.validation,
});

/**
 * At most this many parties are named to the planner by id (`= any(array)`, whose per-id estimates let it choose
 * between reading the matches and walking an order's index); a name matching more of them (a word in every
 * buyer's name) is matched by a subquery instead of sending an array of tens of thousands.
 */
export const PARTY_IDS_NAMED = 10_000;

/** A name's "contains, any case" pattern; its index use needs 3 letters, as the route requires. */
const containsPattern = (value: string) => `%${escapeLike(value)}%`;

/**
 * The stored check's outcome, written as a constant rather than a parameter: the planner can then prove that
 * "invalid" or "warnings" lies within the partial index of those two (migration 0022), whatever the plan cache.
 */
const VALIDATION_CONDITION: Record<InvoiceValidationStatus, SQL> = {
  valid: sql`(${invoices.facts}->'validation'->>'status') = 'valid'`,
  warnings: sql`(${invoices.facts}->'validation'->>'status') = 'warnings'`,
  invalid: sql`(${invoices.facts}->'validation'->>'status') = 'invalid'`,
};

/** The filter as one condition, its names already matched to parties (partyCondition). */
export function filterCondition(filter: InvoiceFilter, parties: SQL[] = []): SQL | undefined {
  const prefix = (column: SQL, value: string | undefined) =>
    value ? sql`upper(${column}) like ${`${escapeLike(value.toUpperCase())}%`}` : undefined;
  return and(
    prefix(sql`${invoices.parcelCode}`, filter.parcelCode),
    prefix(sql`${invoices.invoiceNumber}`, filter.invoiceNumber),
    ...parties,
    filter.issuedFrom ? gte(invoices.issueDate, filter.issuedFrom) : undefined,
    filter.issuedTo ? lte(invoices.issueDate, filter.issuedTo) : undefined,
    filter.amountMin ? gte(invoices.totalGross, filter.amountMin) : undefined,
    filter.amountMax ? lte(invoices.totalGross, filter.amountMax) : undefined,
    filter.format ? eq(invoices.format, filter.format) : undefined,
    filter.bankDetailsChanged ? isNotNull(invoices.bankDetailsChangedAt) : undefined,
    filter.validation ? VALIDATION_CONDITION[filter.validation] : undefined,
  );
}

/**
 * Plain PDFs have no issue date or amount, so among them those orders are the parcel code's: said so, a
 * search of plain PDFs walks the primary key instead of an index of 9 in 10 other invoices' dates.
 */
function pageOrderOf(search: InvoiceSearch): PageOrder {
  if (search.filter.format !== 'pdf' || search.sort === 'received' || search.sort === '-received') return search.sort;
  return search.sort.startsWith('-') ? '-code' : 'code';
}

export interface InvoiceSearch {
  filter: InvoiceFilter;
  sort: InvoiceSort;
  limit: number;
  offset: number;
}

/**
 * The Invoices page's search over the current invoices. The count is bounded (INVOICE_COUNT_LIMIT): exact
 * for a narrow search, "more than 10,000" for a wide one, never a scan of millions to say how many.
 */
export function createInvoiceSearchRepository(db: Database) {
  /**
   * "Seller/buyer contains" as a condition on the invoices' party ids: the name is matched among the distinct
   * parties (trigram index there, migration 0017), then the invoices are read by id through B-trees. The
   * semantics are the name column's own: the parties' names are the invoices' names, each once.
   */
  async function partyCondition(
    party: typeof invoiceSellers | typeof invoiceBuyers,
    column: typeof invoices.sellerId | typeof invoices.buyerId,
    value: string | undefined,
  ): Promise<SQL | undefined> {
    if (!value) return undefined;
    const matching = ilike(party.name, containsPattern(value));
    const found = await db
      .select({ id: party.id })
      .from(party)
      .where(matching)
      .limit(PARTY_IDS_NAMED + 1);
    if (found.length === 0) return sql`false`;
    if (found.length > PARTY_IDS_NAMED) return inArray(column, db.select({ id: party.id }).from(party).where(matching));
    // One array parameter, the same text on node-postgres and PGlite, whatever the number of ids.
    return sql`${column} = any(${`{${found.map((row) => row.id).join(',')}}`}::int[])`;
  }

  async function whereOf(filter: InvoiceFilter): Promise<SQL | undefined> {
    const parties = await Promise.all([
      partyCondition(invoiceSellers, invoices.sellerId, filter.seller),
      partyCondition(invoiceBuyers, invoices.buyerId, filter.buyer),
    ]);
    return filterCondition(
      filter,
      parties.filter((condition): condition is SQL => condition !== undefined),
    );
  }

  async function boundedCount(where: SQL | undefined, bound: number): Promise<number> {
    const matches = db
      .select({ one: sql`1` })
      .from(invoices)
      .where(where)
      .limit(bound + 1)
      .as('matches');
    const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(matches);
    return row?.total ?? 0;
  }

  async function page(
    search: InvoiceSearch,
    order: PageOrder,
    where: SQL | undefined,
    fewMatches: boolean,
  ): Promise<SummaryRow[]> {
    if (!fewMatches) {
      return db
        .select(summaryColumns)
        .from(invoices)
        .where(where)
        .orderBy(...ORDER[order])
        .limit(search.limit)
        .offset(search.offset);
    }
    // MATERIALIZED keeps the planner from folding the matches back into an index walk in the page's order.
    // Both drivers (node-postgres, PGlite) answer raw queries with { rows }.
    const result = (await db.execute(sql`
      with matches as materialized (
        select parcel_code, uploaded_at, issue_date, currency, total_gross from ${invoices} where ${where ?? sql`true`}
      )
      select parcel_code from matches order by ${ORDER_OF_MATCHES[order]}
      limit ${search.limit} offset ${search.offset}`)) as unknown as { rows: { parcel_code: string }[] };
    const codes = result.rows.map((row) => row.parcel_code);
    if (codes.length === 0) return [];
    const rows = await db.select(summaryColumns).from(invoices).where(inArray(invoices.parcelCode, codes));
    const byCode = new Map(rows.map((row) => [row.parcelCode, row]));
    return codes.flatMap((code) => byCode.get(code) ?? []);
  }

  return {
    async search(search: InvoiceSearch): Promise<{ items: InvoiceSummary[]; total: number; totalIsAtLeast: boolean }> {
      const where = await whereOf(search.filter);
      // Deep pages count as far as they go: what is past the page is "more", whatever its number.
      const bound = Math.max(INVOICE_COUNT_LIMIT, search.offset + search.limit);
      const counted = await boundedCount(where, bound);
      const total = Math.min(counted, bound);
      const totalIsAtLeast = counted > bound;
      if (search.offset >= counted) return { items: [], total, totalIsAtLeast };
      const byName = Boolean(search.filter.seller || search.filter.buyer);
      // A name with few matches (the count is exact): its page is read by party id and sorted, as a
      // planner left alone walks an order's whole index for a rare name it thinks is common (seconds at 10
      // million). With more, the matches are dense enough that walking the order finds a page at once.
      const rows = await page(search, pageOrderOf(search), where, byName && !totalIsAtLeast);
      return { items: rows.map(toSummary), total, totalIsAtLeast };
    },

    /**
     * The whole search in sums: per currency, and per currency and month of issue. One pass over the matches
     * (the search's own conditions and indexes), grouped twice by `grouping sets`; the sums are PostgreSQL's
     * exact numeric, sent as text.
     */
    async summary(filter: InvoiceFilter): Promise<InvoiceSearchSummary> {
      const where = await whereOf(filter);
      const month = sql`to_char(${invoices.issueDate}, 'YYYY-MM')`;
      const result = (await db.execute(sql`
        select ${invoices.currency} as currency, ${month} as month, grouping(${month})::int as per_currency,
          sum(${invoices.totalGross})::text as total, count(${invoices.totalGross})::int as summed,
          (count(*) - count(${invoices.totalGross}))::int as unsummed
        from ${invoices} where ${where ?? sql`true`}
        group by grouping sets ((${invoices.currency}, ${month}), (${invoices.currency}))
        order by 1 asc nulls last, 2 asc nulls first`)) as unknown as { rows: SummaryGroup[] };
      return summaryOf(result.rows);
    },

    /** The parcel codes of a search's first `limit` results, in its order: "all results" of a ZIP. */
    async codesOf(filter: InvoiceFilter, sort: InvoiceSort, limit: number): Promise<string[]> {
      const found = await this.search({ filter, sort, limit, offset: 0 });
      return found.items.map((item) => item.parcelCode);
    },

    /** The current rows of these codes (those that exist), for a ZIP. */
    async rowsOf(parcelCodes: string[]) {
      if (parcelCodes.length === 0) return [];
      return db.select().from(invoices).where(inArray(invoices.parcelCode, parcelCodes));
    },
  };
}

interface SummaryGroup {
  currency: string | null;
  month: string | null;
  per_currency: number;
  total: string | null;
  summed: number;
  unsummed: number;
}

/** The grouped rows as the answer: an invoice without a currency has an amount in no currency's terms. */
function summaryOf(rows: SummaryGroup[]): InvoiceSearchSummary {
  const summary: InvoiceSearchSummary = { currencies: [], months: [], withoutAmount: 0 };
  for (const row of rows) {
    if (row.per_currency === 1) {
      if (row.currency === null || row.total === null) summary.withoutAmount += row.summed + row.unsummed;
      else {
        summary.currencies.push({ currency: row.currency, total: row.total, count: row.summed });
        summary.withoutAmount += row.unsummed;
      }
    } else if (row.currency !== null && row.month !== null && row.total !== null) {
      summary.months.push({ currency: row.currency, month: row.month, total: row.total, count: row.summed });
    }
  }
  return summary;
}

export type InvoiceSearchRepository = ReturnType<typeof createInvoiceSearchRepository>;
