import type { AuditFilter } from './get-audit-page';
import type { UsersQuery } from './get-users-page';

/** Everything the admin screen caches sits under one prefix, so one invalidation refreshes it after a change. */
export const adminKeys = {
  all: ['admin'] as const,
  usersPage: (query: UsersQuery) => ['admin', 'users', query] as const,
  auditPage: (page: number, filter: AuditFilter = {}) => ['admin', 'audit', { page, ...filter }] as const,
  accountCleanups: ['admin', 'account-cleanups'] as const,
  approvals: ['admin', 'approvals'] as const,
  /** The mutation key of every single change (add, delete, role): the loading overlay shows while one runs. */
  change: ['admin', 'change'] as const,
};
