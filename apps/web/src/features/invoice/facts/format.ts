const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const LOCAL_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** An invoice's `YYYY-MM-DD` the British way (`5 Nov 2024`): a calendar date, so no time zone moves it. */
export function britishDate(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? iso : DATE.format(date);
}

/** A moment (when a version was stored) as the reader's local date, the British way. */
export function britishDay(timestamp: string | null): string | null {
  if (!timestamp) return null;
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : LOCAL_DATE.format(date);
}

/**
 * An amount as the reader's locale writes money ("€1,453.76" in en-GB, "1.453,76 €" in de-DE), every decimal the
 * invoice wrote kept: the amount is formatted from its decimal string, never rounded through a float. Without a
 * currency, or with a code the browser does not know, the amount as written with the code after it.
 */
export function formatMoney(amount: string | null, currency: string | null, locale?: string): string | null {
  if (amount === null) return null;
  if (!currency) return amount;
  const decimals = amount.split('.')[1]?.length ?? 0;
  try {
    const format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: Math.min(Math.max(decimals, 2), 20),
      maximumFractionDigits: Math.min(Math.max(decimals, 2), 20),
    });
    // A decimal string is formatted exactly (Intl.NumberFormat v3); typed as a number by older lib files.
    return format.format(amount as unknown as number);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** IBANs read best in groups of four. */
export function groupedAccount(iban: string | null): string | null {
  if (!iban) return null;
  const compact = iban.replace(/\s+/g, '');
  return /^[A-Z]{2}\d{2}[A-Z0-9]+$/i.test(compact) ? compact.replace(/(.{4})(?=.)/g, '$1 ') : iban;
}
