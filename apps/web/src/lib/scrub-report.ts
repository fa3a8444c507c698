import { maskPersonalData, maskPersonalDataDeep } from '@portal/contract/personal-data';
import type { Breadcrumb, ErrorEvent } from '@sentry/react';

/** The one masking the server's logs and reports use too: e-mails, tokens, parcel and one-time codes. */
export const scrubText = maskPersonalData;

/**
 * Every string of a breadcrumb: navigation (from, to), fetch and XHR URLs, and console messages with their
 * arguments (`data.arguments`), which may hold anything the page logged.
 */
export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  return maskPersonalDataDeep(breadcrumb);
}

/**
 * Every string of an event: the page URL and referrer, the exception messages, `extra`, `contexts`, tags and
 * breadcrumbs. The query string is dropped whole.
 */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  const request = event.request && { ...event.request, query_string: undefined };
  return maskPersonalDataDeep({ ...event, ...(request ? { request } : {}) });
}
