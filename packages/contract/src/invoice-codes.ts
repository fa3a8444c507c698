/**
 * The names people read for an e-invoice's codes, one table for the server's PDF rendering and the web's facts
 * panel. Free of zod, so the invoice screen can import it without the schema library.
 */

/** BT-3, the document type (UNTDID 1001): the codes EN 16931 invoices and credit notes use. */
export const DOCUMENT_TYPE_NAMES: Readonly<Record<string, string>> = {
  '380': 'Invoice',
  '381': 'Credit note',
  '383': 'Debit note',
  '384': 'Corrected invoice',
  '386': 'Prepayment invoice',
  '389': 'Self-billed invoice',
  '261': 'Self-billed credit note',
  '326': 'Partial invoice',
  '751': 'Invoice information',
};

/**
 * BT-3 codes of credit notes (EN 16931's credit-note subset of UNTDID 1001): their amount is credited to the
 * buyer, not due from them.
 */
export const CREDIT_NOTE_TYPE_CODES: ReadonlySet<string> = new Set([
  '81',
  '83',
  '261',
  '262',
  '296',
  '308',
  '381',
  '396',
  '420',
  '458',
  '532',
]);

/** BT-81, the payment means (UNTDID 4461): the codes invoices use. */
export const PAYMENT_MEANS_NAMES: Readonly<Record<string, string>> = {
  '30': 'Credit transfer',
  '31': 'Debit transfer',
  '42': 'Payment to bank account',
  '48': 'Bank card',
  '49': 'Direct debit',
  '57': 'Standing agreement',
  '58': 'SEPA credit transfer',
  '59': 'SEPA direct debit',
  '10': 'Cash',
  '1': 'Not defined',
  ZZZ: 'Mutually defined',
};

/** A document type as people read it; an invoice without one (or with an unknown code) is an invoice. */
export const documentTypeName = (typeCode: string | null | undefined): string =>
  DOCUMENT_TYPE_NAMES[typeCode ?? ''] ?? 'Invoice';

export const isCreditNote = (typeCode: string | null | undefined): boolean =>
  CREDIT_NOTE_TYPE_CODES.has(typeCode ?? '');

/** A payment means as people read it, with its code: "SEPA credit transfer (58)"; an unknown code as it is. */
export const paymentMeansName = (code: string): string =>
  PAYMENT_MEANS_NAMES[code] ? `${PAYMENT_MEANS_NAMES[code]} (${code})` : code;
