import { z } from 'zod';
import { INVOICE_FORMATS } from './invoice-terms.ts';
import { parcelCodeSchema } from './invoices.ts';

/** Received newest first (the default), oldest first; issued; amount (invoices without one last, either way). */
export const INVOICE_SORTS = ['-received', 'received', '-issued', 'issued', '-amount', 'amount'] as const;
export { INVOICE_FORMATS } from './invoice-terms.ts';
export type InvoiceSort = (typeof INVOICE_SORTS)[number];
/** What the stored EN 16931 check of an e-invoice found: no rule broken, only warnings, or a fatal rule broken. */
export const INVOICE_VALIDATION_STATUSES = ['valid', 'warnings', 'invalid'] as const;
export type InvoiceValidationStatus = (typeof INVOICE_VALIDATION_STATUSES)[number];

/** Rows a page may ask for, and how deep paging goes: past that, a narrower search finds it faster. */
export const INVOICE_PAGE_SIZES = [25, 50, 100] as const;
export const MAX_INVOICE_OFFSET = 10_000;
/**
 * Counted exactly up to this (or to the end of the page asked for, when deeper); beyond, the answer says "more
 * than": a count of millions is no use to a person, and counting 10,000 matches of a wide search cost 60 ms.
 */
export const INVOICE_COUNT_LIMIT = 1_000;
/** The most invoices one ZIP holds. */
export const MAX_ZIP_INVOICES = 500;
/** The shortest seller or buyer text searched for: two letters match half the list and use no index. */
export const MIN_NAME_SEARCH = 3;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is written YYYY-MM-DD')
  .refine((value) => {
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
  }, 'That day does not exist');
const amount = z
  .string()
  .trim()
  .regex(/^-?\d{1,15}(\.\d{1,6})?$/, 'An amount is a number such as 1250 or 1250.50');
const text = (max: number) => z.string().trim().max(max).optional();
const nameText = z
  .string()
  .trim()
  .max(200)
  .refine((value) => value.length === 0 || value.length >= MIN_NAME_SEARCH, {
    message: `Type at least ${MIN_NAME_SEARCH} letters of the name`,
  })
  .optional();

/** What the Invoices page filters by; every field optional, all of them together (AND). */
const filterShape = {
  /** The start of a parcel code, any case. */
  parcelCode: text(64).refine((value) => !value || /^[A-Za-z0-9_-]+$/.test(value), {
    message: 'A parcel code is letters, digits, "-" or "_"',
  }),
  /** The start of an invoice number (BT-1), any case. */
  invoiceNumber: text(100),
  /** Part of the seller's name (BT-27), any case. */
  seller: nameText,
  /** Part of the buyer's name (BT-44), any case. */
  buyer: nameText,
  /** Issue date (BT-2) from and to, both days included. */
  issuedFrom: day.optional(),
  issuedTo: day.optional(),
  /** Total with VAT (BT-112) from and to, both included, in whatever currency the invoice is in. */
  amountMin: amount.optional(),
  amountMax: amount.optional(),
  format: z.enum(INVOICE_FORMATS).optional(),
  /** Only invoices whose payment accounts changed and no second person has looked yet. */
  bankDetailsChanged: z.enum(['true']).optional(),
  /** The stored EN 16931 check's outcome; plain PDFs and unchecked e-invoices match none of them. */
  validation: z.enum(INVOICE_VALIDATION_STATUSES).optional(),
};
type Ranges = { issuedFrom?: string; issuedTo?: string; amountMin?: string; amountMax?: string };
const rangesInOrder = <T extends z.ZodType<Ranges>>(schema: T) =>
  schema
    .refine((f) => !f.issuedFrom || !f.issuedTo || f.issuedFrom <= f.issuedTo, {
      message: '"Issued from" must not be after "Issued to"',
      path: ['issuedTo'],
    })
    .refine((f) => !f.amountMin || !f.amountMax || Number(f.amountMin) <= Number(f.amountMax), {
      message: 'The smallest amount must not be above the largest',
      path: ['amountMax'],
    });

export const invoiceFilterSchema = rangesInOrder(z.object(filterShape).strict());
export type InvoiceFilter = z.infer<typeof invoiceFilterSchema>;

/** GET /invoices: the filter, an order and a page. */
export const invoiceSearchQuerySchema = rangesInOrder(
  z
    .object({
      ...filterShape,
      sort: z.enum(INVOICE_SORTS).optional(),
      limit: z.coerce.number().int().min(1).max(100).optional(),
      offset: z.coerce
        .number()
        .int()
        .min(0)
        .max(
          MAX_INVOICE_OFFSET,
          `Pages go ${MAX_INVOICE_OFFSET.toLocaleString('en-GB')} invoices deep: narrow the search`,
        )
        .optional(),
    })
    .strict(),
);
export type InvoiceSearchQuery = z.infer<typeof invoiceSearchQuerySchema>;

/** One invoice as the list shows it: the current version's terms; null where it has none (a plain PDF). */
export const invoiceSummarySchema = z.object({
  parcelCode: z.string(),
  format: z.enum(INVOICE_FORMATS),
  invoiceNumber: z.string().nullable(),
  issueDate: z.string().nullable(),
  sellerName: z.string().nullable(),
  buyerName: z.string().nullable(),
  totalGross: z.string().nullable(),
  currency: z.string().nullable(),
  /** When the current version was stored (ISO 8601). */
  uploadedAt: z.string(),
  hasXml: z.boolean(),
  /** A change of payment accounts nobody has acknowledged yet. */
  bankDetailsChanged: z.boolean(),
  /**
   * A change of the amount due nobody has acknowledged yet. Optional, as is `dueDate`: a server of the release
   * before does not send them, and the page is shown by either during a rollout.
   */
  amountChanged: z.boolean().optional(),
  /** When payment is due (BT-9, `YYYY-MM-DD`); null where the invoice does not say. */
  dueDate: z.string().nullable().optional(),
  /** The stored EN 16931 check's outcome; null for a plain PDF or an e-invoice stored unchecked. Optional, as above. */
  validation: z.enum(INVOICE_VALIDATION_STATUSES).nullable().optional(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoiceSearchResultSchema = z.object({
  items: z.array(invoiceSummarySchema),
  /** How many match, exact up to INVOICE_COUNT_LIMIT or the page's end; `totalIsAtLeast` when there are more. */
  total: z.number().int(),
  totalIsAtLeast: z.boolean(),
});
export type InvoiceSearchResult = z.infer<typeof invoiceSearchResultSchema>;

/** GET /invoices/search/summary: the filters of GET /invoices, without an order or a page. */
export const invoiceSearchSummaryQuerySchema = invoiceFilterSchema;

const sumSchema = z.object({
  /** ISO 4217 code as the invoices state it (BT-5). */
  currency: z.string(),
  /** The sum of BT-112, exact, as a decimal string ("12345.60"): never summed across currencies. */
  total: z.string(),
  count: z.number().int(),
});
/**
 * The whole search in sums, not one page: per currency, and per currency and month of issue (`YYYY-MM`, oldest
 * first). Invoices without an amount or a currency (plain PDFs) are only counted in `withoutAmount`; those
 * with an amount but no issue date are in the currency's total and in no month.
 */
export const invoiceSearchSummarySchema = z.object({
  currencies: z.array(sumSchema),
  months: z.array(sumSchema.extend({ month: z.string() })),
  withoutAmount: z.number().int(),
});
export type InvoiceSearchSummary = z.infer<typeof invoiceSearchSummarySchema>;

/**
 * POST /invoices/zip: the invoices chosen one by one, or every result of a search (at most MAX_ZIP_INVOICES,
 * in the search's order). Exactly one of the two.
 */
export const invoiceZipBodySchema = z
  .object({
    parcelCodes: z
      .array(parcelCodeSchema)
      .min(1, 'Choose at least one invoice')
      .max(MAX_ZIP_INVOICES, `Choose at most ${MAX_ZIP_INVOICES} invoices`)
      .optional(),
    search: invoiceFilterSchema.optional(),
    sort: z.enum(INVOICE_SORTS).optional(),
  })
  .strict()
  .refine((body) => (body.parcelCodes === undefined) !== (body.search === undefined), {
    message: 'Send either parcelCodes or search',
  });
export type InvoiceZipBody = z.infer<typeof invoiceZipBodySchema>;
/** The ZIP's answer names how many invoices it holds and about how many bytes it will be, for a progress bar. */
export const ZIP_COUNT_HEADER = 'x-invoice-count';
export const ZIP_EXPECTED_BYTES_HEADER = 'x-expected-bytes';
