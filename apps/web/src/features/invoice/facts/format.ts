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

export { formatMoney } from '@/lib/format-money';

/** IBANs read best in groups of four. */
export function groupedAccount(iban: string | null): string | null {
  if (!iban) return null;
  const compact = iban.replace(/\s+/g, '');
  return /^[A-Z]{2}\d{2}[A-Z0-9]+$/i.test(compact) ? compact.replace(/(.{4})(?=.)/g, '$1 ') : iban;
}
