/**
 * Masks what must never reach a log line or an error report: e-mail addresses, bearer and ID tokens, and
 * parcel and one-time codes where they stand in a URL (query, hash route or /invoices/<code> path). One
 * module serves the server's logs, the server's error reports and the browser's error reports, so the three
 * cannot drift apart.
 */
const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
// A JWT (three base64url parts) wherever it stands, and whatever follows "Bearer ".
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const BEARER = /\b(Bearer\s+)\S+/gi;
const CODE_IN_QUERY = /([?&#](?:parcelCode|oobCode|token|apiKey|key)=)[^&#\s"']+/gi;
const PARCEL_IN_PATH = /(\/invoices\/)[^/?#\s"']+/g;

export const MASK = '[masked]';

export function maskPersonalData(text: string): string {
  return text
    .replace(BEARER, `$1${MASK}`)
    .replace(JWT, MASK)
    .replace(EMAIL, MASK)
    .replace(CODE_IN_QUERY, `$1${MASK}`)
    .replace(PARCEL_IN_PATH, `$1${MASK}`);
}

/** The same, through every string of a plain object or array (log fields, error report events). */
export function maskPersonalDataDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return maskPersonalData(value) as T;
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => maskPersonalDataDeep(item, depth + 1)) as T;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const masked: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) masked[key] = maskPersonalDataDeep(item, depth + 1);
  return masked as T;
}
