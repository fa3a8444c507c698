/** Every route of the SPA, named once: the router, the header, the guards and the redirects use these. */
export const paths = {
  root: '/',
  invoice: '/invoice',
  admin: '/admin',
  /** The finance role's search of every invoice. */
  invoices: '/invoices',
  login: '/login',
} as const;

/**
 * Where a password-reset mail's link leads: the in-app hash route /invoice (docs/product/screens-and-routes.md),
 * with the parcel code of the link the person came with. The mail opens in a new tab, which has none of this
 * tab's saved location, so the code travels in the link itself.
 */
export function resetContinueUrl(before: { search: string } | null = null): string {
  const parcelCode = before ? new URLSearchParams(before.search).get('parcelCode')?.trim() : undefined;
  const query = parcelCode ? `?${new URLSearchParams({ parcelCode }).toString()}` : '';
  return `${window.location.origin}/#${paths.invoice}${query}`;
}
