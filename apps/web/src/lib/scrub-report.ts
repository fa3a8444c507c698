import type { Breadcrumb, ErrorEvent } from '@sentry/react';

const PARCEL_CODE_PARAM = /([?&#]parcelCode=)[^&#\s]*/gi;
const USERS_PATH_EMAIL = /(\/users\/)[^/?#\s]+/gi;
const EMAIL = /[^\s/?#&=:"'<>@]+@[^\s/?#&="'<>]+/g;

/** Takes the parcel code, the e-mail in /users/<email> and any other e-mail address out of a URL or text. */
export function scrubText(text: string): string {
  return text
    .replace(PARCEL_CODE_PARAM, '$1[redacted]')
    .replace(USERS_PATH_EMAIL, '$1[email]')
    .replace(EMAIL, '[email]');
}

const scrubOptional = (value: unknown) => (typeof value === 'string' ? scrubText(value) : value);

/** Breadcrumbs keep navigation (from, to), fetch and XHR URLs and console text: each is scrubbed. */
export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  const data = breadcrumb.data && { ...breadcrumb.data };
  if (data) for (const key of ['url', 'from', 'to']) if (key in data) data[key] = scrubOptional(data[key]);
  return {
    ...breadcrumb,
    ...(breadcrumb.message !== undefined ? { message: scrubText(breadcrumb.message) } : {}),
    ...(data ? { data } : {}),
  };
}

/** An event carries the page URL, its query string and the referrer besides its breadcrumbs. */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  const request = event.request && {
    ...event.request,
    url: scrubOptional(event.request.url) as string | undefined,
    query_string: undefined,
    headers: event.request.headers && {
      ...event.request.headers,
      ...(event.request.headers.Referer ? { Referer: scrubText(event.request.headers.Referer) } : {}),
    },
  };
  return {
    ...event,
    ...(request ? { request } : {}),
    ...(event.transaction ? { transaction: scrubText(event.transaction) } : {}),
    ...(event.message ? { message: scrubText(event.message) } : {}),
    ...(event.breadcrumbs ? { breadcrumbs: event.breadcrumbs.map(scrubBreadcrumb) } : {}),
  };
}
