/** Every route of the SPA, named once: the router, the header, the guards and the redirects use these. */
export const paths = {
  root: '/',
  invoice: '/invoice',
  admin: '/admin',
  login: '/login',
} as const;
