import type { UserRow } from './repository.ts';

/**
 * Who may open invoices, by their row of the allowlist: listed, and not deactivated by the company directory.
 * The one rule, asked by the sign-in check of every invoice call (plugins/authorization.ts) and by the arrival
 * mail when it is sent, so nobody is mailed an invoice they could not open. Undefined: they may; else why not.
 */
export function whyNotInvoiceReader(row: Pick<UserRow, 'suspended'> | undefined): string | undefined {
  if (!row) return 'not on the list';
  // SCIM active=false: the row stays (the directory may activate it again), the person is refused.
  if (row.suspended) return 'deactivated by the directory';
  return undefined;
}
