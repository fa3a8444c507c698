/**
 * What the facts of an invoice carry, named once for the schema (the server's answer and its OpenAPI), the
 * server's mapping from a stored version, and the web's hand-written check of the answer. Free of zod, so
 * the invoice screen can import it without the schema library.
 */

/** `pdf`: a PDF with no invoice XML read from it; `facturx`: a hybrid PDF; `cii`, `ubl`: XML only. */
export const INVOICE_FORMATS = ['pdf', 'facturx', 'cii', 'ubl'] as const;

/** The EN 16931 terms the facts carry as text, null where the invoice does not carry them, with what each is. */
export const INVOICE_FACT_TERMS = {
  profile: 'BT-24 specification identifier',
  profileName: 'The profile for people: "Factur-X EN 16931", "XRechnung 3.0", "Peppol BIS Billing 3.0" …',
  invoiceNumber: 'BT-1',
  typeCode: 'BT-3: 380 invoice, 381 credit note …',
  issueDate: 'BT-2',
  dueDate: 'BT-9',
  currency: 'BT-5',
  sellerName: 'BT-27',
  sellerVatId: 'BT-31',
  buyerName: 'BT-44',
  buyerReference: 'BT-10',
  totalNet: 'BT-109',
  totalTax: 'BT-110',
  totalGross: 'BT-112',
  amountDue: 'BT-115',
  iban: 'BT-84 of the first payment means',
} as const;

export type InvoiceFactTerm = keyof typeof INVOICE_FACT_TERMS;

export const INVOICE_FACT_TERM_NAMES = Object.keys(INVOICE_FACT_TERMS) as InvoiceFactTerm[];

/** Why an invoice needs a second look before anyone pays it (the schema says what each means). */
export const INVOICE_WARNING_KINDS = [
  'bank-details',
  'amount',
  'e-invoice-removed',
  'visible-account',
  'visible-text-unread',
] as const;
