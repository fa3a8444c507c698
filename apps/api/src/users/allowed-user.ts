import type { AllowedUser } from '@portal/contract';
import type { UserRow } from './repository.ts';

/** A row as the admin screen shows it. */
export const toAllowedUser = (row: UserRow): AllowedUser => ({
  email: row.email,
  admin: row.admin,
  finance: row.finance,
  activated: row.activated,
  registered: row.registered,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
  managedBy: row.managedBy ? 'directory' : null,
  suspended: row.suspended,
});
