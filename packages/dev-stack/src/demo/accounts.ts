/** The demo accounts `npm start` seeds and e2e signs in with, written down here only (the README shows them). */
export const DEMO_ACCOUNTS = [
  {
    email: 'admin@example.com',
    password: 'demo-admin-password',
    admin: true,
    finance: false,
    allowlisted: true,
    activated: true,
  },
  {
    email: 'user@example.com',
    password: 'demo-user-password',
    admin: false,
    finance: false,
    allowlisted: true,
    activated: true,
  },
  // The finance role: the Invoices page (search every invoice, download many at once).
  {
    email: 'finance@example.com',
    password: 'demo-finance-password',
    admin: false,
    finance: true,
    allowlisted: true,
    activated: true,
  },
  {
    email: 'invited@example.com',
    password: undefined,
    admin: false,
    finance: false,
    allowlisted: true,
    activated: false,
  },
  {
    email: 'outsider@example.com',
    password: 'demo-outsider-password',
    admin: false,
    finance: false,
    allowlisted: false,
    activated: true,
  },
] as const;

export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

/** One demo account by its e-mail address; the type keeps the password when the account has one. */
export function demoAccount<E extends DemoAccount['email']>(email: E): Extract<DemoAccount, { email: E }> {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.email === email);
  if (!account) throw new Error(`no demo account ${email}`);
  return account as Extract<DemoAccount, { email: E }>;
}

export const DEMO_PARCEL_CODES = ['DEMO000001', 'DEMO000002', 'DEMO000003'] as const;
