import { z } from 'zod';
import {
  INVOICE_FACT_TERM_NAMES,
  INVOICE_FACT_TERMS,
  INVOICE_FORMATS,
  INVOICE_WARNING_KINDS,
  type InvoiceFactTerm,
} from './invoice-terms.ts';

export const PARCEL_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const parcelCodeSchema = z
  .string()
  .regex(PARCEL_CODE_PATTERN, 'A parcel code is 1 to 64 letters, digits, "-" or "_"');

export const invoiceQuerySchema = z.object({ parcelCode: parcelCodeSchema });

/**
 * `pdf`: a PDF with no invoice XML read from it; `facturx`: a hybrid PDF (ZUGFeRD 2.x / Factur-X, or an
 * XRechnung attached the same way); `cii`, `ubl`: an invoice that is XML only, shown as a PDF rendering.
 */
export const invoiceFormatSchema = z.enum(INVOICE_FORMATS);
export type InvoiceFormat = z.infer<typeof invoiceFormatSchema>;

/** PUT /invoices/:parcelCode's answer. */
export const invoiceStoredSchema = z.object({
  parcelCode: z.string(),
  sha256: z.string(),
  size: z.number(),
  status: z.enum(['created', 'replaced', 'unchanged']),
  format: invoiceFormatSchema,
  /** Why a PDF's attached XML was not read (it is stored as a plain PDF all the same); empty otherwise. */
  warnings: z.array(z.string()),
});
export type InvoiceStored = z.infer<typeof invoiceStoredSchema>;

/**
 * Why an invoice needs a second look before anyone pays it, raised when a version is stored:
 * - `bank-details`: its payment accounts (BT-84 of every payment means, as a set) differ from the last ones
 *   any earlier version named, or it names none where an earlier one did; or, where no XML can be compared
 *   (a plain PDF before or after), the accounts its pages show differ from those the last version showed
 *   (detail `accounts shown …`);
 * - `amount`: its amount due (BT-115 with its currency) differs from the last one, or is gone;
 * - `e-invoice-removed`: a plain PDF replaced an e-invoice, so neither can be checked any more;
 * - `visible-account`: a hybrid's pages show an account its XML does not name;
 * - `visible-text-unread`: a PDF's pages could not be read to check either.
 */
export const invoiceWarningKindSchema = z.enum(INVOICE_WARNING_KINDS);
export type InvoiceWarningKind = z.infer<typeof invoiceWarningKindSchema>;

/** A version's payment accounts (BT-84, whole) and amount due (BT-115) with its currency. */
export const invoiceGuardedTermsSchema = z.object({
  accounts: z.array(z.string()),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
});
export type InvoiceGuardedTerms = z.infer<typeof invoiceGuardedTermsSchema>;

/** A warning not yet acknowledged: it stays on the invoice, whatever later versions say, until it is. */
export const invoiceWarningSchema = z.object({
  id: z.number().int(),
  kind: invoiceWarningKindSchema,
  /** When the version that raised it was stored (ISO 8601). */
  raisedAt: z.string(),
  /** What changed, accounts shortened to their last four characters: `payment account …2051 -> …5555`. */
  detail: z.string(),
  /**
   * `bank-details` and `amount` only: what was compared, whole, so a reader can check the old and the new
   * account and amount before paying. `before` is the last account and the last amount any earlier version
   * named; `after` the version's that raised the warning.
   */
  change: z.object({ before: invoiceGuardedTermsSchema, after: invoiceGuardedTermsSchema }).optional(),
});
export type InvoiceWarning = z.infer<typeof invoiceWarningSchema>;

/** POST /invoices/:parcelCode/warnings/:warningId/acknowledge's answer. */
export const invoiceWarningAcknowledgedSchema = invoiceWarningSchema.extend({
  acknowledgedAt: z.string(),
  acknowledgedBy: z.string(),
});
export type InvoiceWarningAcknowledged = z.infer<typeof invoiceWarningAcknowledgedSchema>;

export const invoiceWarningParamsSchema = z.object({
  parcelCode: parcelCodeSchema,
  warningId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** One EN 16931 business rule an e-invoice breaks, where, and what it found there. */
export const eInvoiceFindingSchema = z.object({
  rule: z.string().describe("The standard's rule id: BR-01, BR-CO-10, BR-S-08, BR-CL-04 …"),
  flag: z.enum(['fatal', 'warning']),
  element: z.string().describe('The business term or group the rule is about (BT-…, BG-…)'),
  message: z.string().describe("The standard's wording of the rule"),
  plain: z.string().nullable().describe('What it means, in a sentence for whoever books the invoice'),
  at: z.string().nullable().describe('Which entry of a repeated group (`line 3`); null for the document'),
  value: z.string().nullable().describe('The value found; null when the term is absent'),
});
export type EInvoiceFinding = z.infer<typeof eInvoiceFindingSchema>;

/** The EN 16931 check of a version's e-invoice, made once at ingestion and stored with its facts. */
export const eInvoiceValidationSchema = z.object({
  status: z.enum(['valid', 'warnings', 'invalid']),
  rulesVersion: z.string().describe('The edition of the rules that made the report'),
  findings: z.array(eInvoiceFindingSchema),
  omittedFindings: z.number().int().describe('Findings beyond the ones listed, not stored'),
});
export type EInvoiceValidation = z.infer<typeof eInvoiceValidationSchema>;

const termSchemas = Object.fromEntries(
  INVOICE_FACT_TERM_NAMES.map((name) => [name, z.string().nullable().describe(INVOICE_FACT_TERMS[name])]),
) as { [Name in InvoiceFactTerm]: z.ZodNullable<z.ZodString> };

/**
 * GET /invoices/:parcelCode: the EN 16931 terms read at ingestion from the current version. Amounts are
 * decimal strings exactly as the invoice writes them, dates `YYYY-MM-DD`; a term the invoice does not carry
 * (and every term of a plain PDF) is null.
 */
export const invoiceFactsSchema = z.object({
  parcelCode: z.string(),
  format: invoiceFormatSchema,
  syntax: z.enum(['cii', 'ubl']).nullable().describe('The XML syntax; null for a plain PDF'),
  ...termSchemas,
  paymentAccounts: z
    .array(z.string())
    .nullable()
    .describe('BT-84 of every payment means, each once, as written; null for a plain PDF'),
  lineCount: z.number().int().nullable().describe('Invoice lines; null for a plain PDF'),
  validation: eInvoiceValidationSchema
    .nullable()
    .describe(
      'The EN 16931 business-rule check made at ingestion: valid, warnings or invalid, with each finding; null for a plain PDF, a version stored before the check, or when the operator keeps no report',
    ),
  /** When the current version was stored (ISO 8601). */
  uploadedAt: z.string(),
  /** GET /invoices/:parcelCode/xml answers the XML. */
  hasXml: z.boolean(),
  /** The PDF that GET /invoice answers is the portal's rendering of an XML-only invoice. */
  pdfIsRendering: z.boolean(),
  /**
   * When the latest warning about the payment accounts (`bank-details`, `visible-account`,
   * `e-invoice-removed`) or the amount (`amount`, `e-invoice-removed`) was raised, while one is not yet
   * acknowledged; null otherwise. `warnings` has each of them.
   */
  bankDetailsChangedAt: z.string().nullable(),
  amountChangedAt: z.string().nullable(),
  /** Every warning on this invoice not yet acknowledged by a second person, oldest first. */
  warnings: z.array(invoiceWarningSchema),
});
export type InvoiceFacts = z.infer<typeof invoiceFactsSchema>;
