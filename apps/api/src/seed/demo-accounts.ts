/** The demo accounts of the operational contract (emulator mode only). */
export const DEMO_ACCOUNTS = [
  { email: 'admin@example.com', password: 'demo-admin-password', admin: true, allowlisted: true, activated: true },
  { email: 'user@example.com', password: 'demo-user-password', admin: false, allowlisted: true, activated: true },
  { email: 'invited@example.com', password: undefined, admin: false, allowlisted: true, activated: false },
  {
    email: 'outsider@example.com',
    password: 'demo-outsider-password',
    admin: false,
    allowlisted: false,
    activated: true,
  },
] as const;
