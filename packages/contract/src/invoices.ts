import { z } from 'zod';

export const PARCEL_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const parcelCodeSchema = z
  .string()
  .regex(PARCEL_CODE_PATTERN, 'A parcel code is 1 to 64 letters, digits, "-" or "_"');

export const invoiceQuerySchema = z.object({ parcelCode: parcelCodeSchema });

/**
 * `pdf`: a PDF with no invoice XML read from it; `facturx`: a hybrid PDF (ZUGFeRD 2.x / Factur-X, or an
 * XRechnung attached the same way); `cii`, `ubl`: an invoice that is XML only, shown as a PDF rendering.
 */
export const invoiceFormatSchema = z.enum(['pdf', 'facturx', 'cii', 'ubl']);
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

const term = (description: string) => z.string().nullable().describe(description);

/**
 * GET /invoices/:parcelCode: the EN 16931 terms read at ingestion from the current version. Amounts are
 * decimal strings exactly as the invoice writes them, dates `YYYY-MM-DD`; a term the invoice does not carry
 * (and every term of a plain PDF) is null.
 */
export const invoiceFactsSchema = z.object({
  parcelCode: z.string(),
  format: invoiceFormatSchema,
  syntax: z.enum(['cii', 'ubl']).nullable().describe('The XML syntax; null for a plain PDF'),
  profile: term('BT-24 specification identifier'),
  profileName: term('The profile for people: "Factur-X EN 16931", "XRechnung 3.0", "Peppol BIS Billing 3.0" …'),
  invoiceNumber: term('BT-1'),
  typeCode: term('BT-3: 380 invoice, 381 credit note …'),
  issueDate: term('BT-2'),
  dueDate: term('BT-9'),
  currency: term('BT-5'),
  sellerName: term('BT-27'),
  sellerVatId: term('BT-31'),
  buyerName: term('BT-44'),
  buyerReference: term('BT-10'),
  totalNet: term('BT-109'),
  totalTax: term('BT-110'),
  totalGross: term('BT-112'),
  amountDue: term('BT-115'),
  iban: term('BT-84'),
  lineCount: z.number().int().nullable().describe('Invoice lines; null for a plain PDF'),
  /** When the current version was stored (ISO 8601). */
  uploadedAt: z.string(),
  /** GET /invoices/:parcelCode/xml answers the XML. */
  hasXml: z.boolean(),
  /** The PDF that GET /invoice answers is the portal's rendering of an XML-only invoice. */
  pdfIsRendering: z.boolean(),
  /**
   * When a version replaced one with another payment account (BT-84) or amount due (BT-115), and the
   * current version still carries that changed value: when it changed. Compared only where both versions
   * carry the term.
   */
  bankDetailsChangedAt: z.string().nullable(),
  amountChangedAt: z.string().nullable(),
});
export type InvoiceFacts = z.infer<typeof invoiceFactsSchema>;
