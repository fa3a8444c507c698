import type { Breadcrumb, ErrorEvent } from '@sentry/react';

const PARCEL_CODE_PARAM = /([?&#]parcelCode=)[^&#\s]*/gi;
const SECRET_PARAM = /([?&#](?:oobCode|apiKey|key|token)=)[^&#\s"']*/gi;
const USERS_PATH_EMAIL = /(\/users\/)[^/?#\s]+/gi;
const EMAIL = /[^\s/?#&=:"'<>@]+@[^\s/?#&="'<>]+/g;
// An ID token (a JWT: three base64url parts) wherever it stands, and whatever follows "Bearer ".
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g;
const BEARER = /\b(Bearer\s+)\S+/gi;

/** Takes parcel codes, e-mail addresses, tokens and secrets in links out of a URL or any other text. */
export function scrubText(text: string): string {
  return text
    .replace(BEARER, '$1[redacted]')
    .replace(JWT, '[redacted]')
    .replace(PARCEL_CODE_PARAM, '$1[redacted]')
    .replace(SECRET_PARAM, '$1[redacted]')
    .replace(USERS_PATH_EMAIL, '$1[email]')
    .replace(EMAIL, '[email]');
}

/**
 * Every string of a report, however deep: exception messages, `extra`, `contexts`, tags, console arguments
 * and whatever a later SDK version adds. Masking field by field missed whatever nobody had listed.
 */
function scrubDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return scrubText(value) as T;
  if (depth > 16 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubDeep(item, depth + 1)) as T;
  // A console argument may be an Error or any other object: kept as scrubbed text, never as it was.
  if (value instanceof Error) {
    return { name: value.name, message: scrubText(value.message), stack: scrubText(value.stack ?? '') } as T;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return scrubText(String(value)) as T;
  const scrubbed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) scrubbed[key] = scrubDeep(item, depth + 1);
  return scrubbed as T;
}

/** Breadcrumbs keep navigation (from, to), fetch and XHR URLs and console text and arguments. */
export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  return scrubDeep(breadcrumb);
}

/**
 * An event carries the page URL, its query string and the referrer, the exception's message, `extra` and
 * `contexts` besides its breadcrumbs. The query string is dropped whole: the URL keeps it, scrubbed.
 */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  const scrubbed = scrubDeep(event);
  if (scrubbed.request) scrubbed.request = { ...scrubbed.request, query_string: undefined };
  return scrubbed;
}
