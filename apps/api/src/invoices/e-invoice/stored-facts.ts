import { distinctAccounts, normalAccount } from './iban.ts';
import type { EInvoiceFacts, EInvoiceSyntax } from './model.ts';
import type { ValidationReport } from './validation/validate.ts';

/**
 * The terms kept with an invoice version (the `facts` column): what GET /invoices/:parcelCode serves.
 * `paymentAccounts` is optional here because versions stored before it was read carry only `iban`.
 */
export interface StoredInvoiceFacts extends Omit<EInvoiceFacts, 'paymentAccounts'> {
  syntax: EInvoiceSyntax;
  profileName: string | null;
  paymentAccounts?: string[];
  /**
   * The EN 16931 check made at ingestion; absent for versions stored before it was made, and when the
   * operator's policy is `accept`.
   */
  validation?: ValidationReport;
}

/** Every payment account of a version, as written; a version stored before all were read has its first. */
export const paymentAccountsOf = (facts: StoredInvoiceFacts): string[] =>
  facts.paymentAccounts ?? distinctAccounts([facts.iban]);

/** The payment accounts as compared: normal form, each once, sorted, so that only the set counts. */
export const accountSetOf = (facts: StoredInvoiceFacts): string[] =>
  [...new Set(paymentAccountsOf(facts).map(normalAccount))].sort();

/** `100`, `100.0` and `+100.00` are one amount; amounts are compared as decimals, never as floats. */
export function normalAmount(amount: string): string {
  const trimmed = amount.trim().replace(/^\+/, '');
  const negative = trimmed.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? trimmed.slice(1) : trimmed).split('.');
  const integer = whole.replace(/^0+(?=\d)/, '') || '0';
  const decimals = fraction.replace(/0+$/, '');
  const value = decimals ? `${integer}.${decimals}` : integer;
  return negative && value !== '0' ? `-${value}` : value;
}
