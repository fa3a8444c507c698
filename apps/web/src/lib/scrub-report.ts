import { maskPersonalData, maskPersonalDataDeep } from '@portal/contract/personal-data';
import type { Breadcrumb, ErrorEvent } from '@sentry/react';

/** The one masking the server's logs and reports use too: e-mails, tokens, parcel and one-time codes. */
export const scrubText = maskPersonalData;

/**
 * Every string of a breadcrumb: navigation (from, to), fetch and XHR URLs, and console messages with their
 * arguments (`data.arguments`), which may hold anything the page logged.
 */
export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  return maskPersonalDataDeep(withPlainErrors(breadcrumb));
}

/**
 * An Error logged to the console stays an Error in the breadcrumb, which the masking passes by (it walks
 * plain objects only) and the SDK later turns into its message and stack: made plain first, it is masked.
 */
function withPlainErrors(breadcrumb: Breadcrumb): Breadcrumb {
  const args: unknown = breadcrumb.data?.arguments;
  if (!Array.isArray(args) || !args.some((arg) => arg instanceof Error)) return breadcrumb;
  const plain = args.map((arg: unknown) =>
    arg instanceof Error ? { name: arg.name, message: arg.message, stack: arg.stack } : arg,
  );
  return { ...breadcrumb, data: { ...breadcrumb.data, arguments: plain } };
}

/**
 * Every string of an event: the page URL and referrer, the exception messages, `extra`, `contexts`, tags and
 * breadcrumbs. The query string is dropped whole.
 */
export function scrubEvent(event: ErrorEvent): ErrorEvent {
  const request = event.request && { ...event.request, query_string: undefined };
  const breadcrumbs = event.breadcrumbs?.map(withPlainErrors);
  return maskPersonalDataDeep({ ...event, ...(request ? { request } : {}), ...(breadcrumbs ? { breadcrumbs } : {}) });
}
