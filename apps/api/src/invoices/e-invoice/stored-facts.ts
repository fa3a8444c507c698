import type { EInvoiceFacts, EInvoiceSyntax } from './model.ts';

/** The terms kept with an invoice version (the `facts` column): what GET /invoices/:parcelCode serves. */
export interface StoredInvoiceFacts extends EInvoiceFacts {
  syntax: EInvoiceSyntax;
  profileName: string | null;
}

/** What a version says about the version before it, for the guard against changed bank details. */
export interface ChangeMarkers {
  bankDetailsChangedAt: Date | null;
  amountChangedAt: Date | null;
}

export interface PreviousVersion extends ChangeMarkers {
  facts: StoredInvoiceFacts | null;
}

/** IBANs are written with or without spaces, in either case. */
const normalAccount = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

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

/**
 * When the new version's payment account (BT-84) or amount due (BT-115, with its currency) differs from the
 * version it replaces, it is marked with `now`; while it keeps that value, later versions carry the mark on,
 * so viewers keep seeing it. A term is compared only when both versions carry it: a plain PDF has none.
 */
export function changeMarkers(
  previous: PreviousVersion | undefined,
  next: StoredInvoiceFacts | null,
  now: Date,
): ChangeMarkers {
  const before = previous?.facts;
  if (!before || !next) {
    return { bankDetailsChangedAt: null, amountChangedAt: null };
  }
  let bankDetailsChangedAt = previous.bankDetailsChangedAt;
  if (before.iban !== null && next.iban !== null) {
    bankDetailsChangedAt =
      normalAccount(before.iban) === normalAccount(next.iban) ? previous.bankDetailsChangedAt : now;
  }
  let amountChangedAt = previous.amountChangedAt;
  if (before.amountDue !== null && next.amountDue !== null) {
    const same = normalAmount(before.amountDue) === normalAmount(next.amountDue) && before.currency === next.currency;
    amountChangedAt = same ? previous.amountChangedAt : now;
  }
  return { bankDetailsChangedAt, amountChangedAt };
}
