import type { AuditFilter } from './get-audit-page';

/** Everything the admin screen caches sits under one prefix, so one invalidation refreshes it after a change. */
export const adminKeys = {
  all: ['admin'] as const,
  usersPage: (search: string, page: number) => ['admin', 'users', { search, page }] as const,
  auditPage: (page: number, filter: AuditFilter = {}) => ['admin', 'audit', { page, ...filter }] as const,
};
