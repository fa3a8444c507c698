/**
 * Everything the admin screen caches sits under one prefix, so one invalidation refreshes it after a change.
 * A list's page keys itself under it beside its fetcher (get-users-page.ts, get-audit-page.ts), which owns the
 * query's type: the keys import no fetcher, so no fetcher's module waits on this one's.
 */
export const adminKeys = {
  all: ['admin'] as const,
  accountCleanups: ['admin', 'account-cleanups'] as const,
  approvals: ['admin', 'approvals'] as const,
  /** The mutation key of every single change (add, delete, role): the loading overlay shows while one runs. */
  change: ['admin', 'change'] as const,
};
