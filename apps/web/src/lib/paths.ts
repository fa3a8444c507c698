/** Every route of the SPA, named once: the router, the header, the guards and the redirects use these. */
export const paths = {
  root: '/',
  invoice: '/invoice',
  admin: '/admin',
  /**
   * The finance role's search of every invoice. Its name holds neither "invoice" nor "admin": the spec's
   * post-login rule sends a saved path containing "invoice" back to that path, so a finance page named so
   * would take an ordinary user's sign-in to it instead of to the invoice screen.
   */
  finance: '/finance',
  login: '/login',
} as const;

/** The finance page's first address, kept for bookmarks: it leads finance holders to `paths.finance`, anyone else to Page Not Found. */
export const FORMER_FINANCE_PATH = '/invoices';

/**
 * The spec's route table lists exact paths and sends "any other path" to Page Not Found, so a route matches only
 * its path as written: not another case (`/INVOICE`), not with a trailing slash (`/invoice/`).
 */
export const isExactRoutePath = (pathname: string): boolean =>
  (Object.values(paths) as string[]).includes(pathname) || pathname === FORMER_FINANCE_PATH;

/**
 * The invoice screen's address for a parcel code, as the mails' links have it. Every link to an invoice in the
 * app is built here: the search's rows, the recently opened menu, the parcel-code form and the reset mail's link.
 */
export const invoicePathFor = (parcelCode: string) =>
  `${paths.invoice}?${new URLSearchParams({ parcelCode: parcelCode.trim() }).toString()}`;

/**
 * Where a password-reset mail's link leads: the in-app hash route /invoice (docs/product/screens-and-routes.md),
 * with the parcel code of the link the person came with. The mail opens in a new tab, which has none of this
 * tab's saved location, so the code travels in the link itself.
 */
export function resetContinueUrl(before: { search: string } | null = null): string {
  const parcelCode = before ? new URLSearchParams(before.search).get('parcelCode')?.trim() : undefined;
  return `${window.location.origin}/#${parcelCode ? invoicePathFor(parcelCode) : paths.invoice}`;
}
