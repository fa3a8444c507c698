/** Every route of the SPA, named once: the router, the header, the guards and the redirects use these. */
export const paths = {
  root: '/',
  invoice: '/invoice',
  admin: '/admin',
  login: '/login',
} as const;

/** Where a password-reset mail's link leads: the in-app hash route /invoice (docs/product/screens-and-routes.md). */
export const resetContinueUrl = () => `${window.location.origin}/#${paths.invoice}`;
