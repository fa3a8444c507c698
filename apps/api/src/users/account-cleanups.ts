import { asc, count, eq, inArray } from 'drizzle-orm';
import { createJobQueue } from '../background/job-queue.ts';
import type { Database } from '../db/client.ts';
import { accountCleanups } from '../db/schema.ts';

export type AccountCleanup = typeof accountCleanups.$inferSelect;

/** How long one instance holds a clean-up it took up: longer than the two identity calls can take. */
export const CLEANUP_LEASE_MS = 60_000;

/**
 * The queue of sign-in accounts still to be signed out and deleted after a removal (migration 0007), on the
 * background job queue (background/job-queue.ts: leased on the database's clock, SKIP LOCKED). A job is added
 * in the removal's own transaction (`UsersRepository.removeQueuingCleanup`), already leased to the request that
 * removed the row, which tries it at once. Any instance takes up a job whose lease ran out and whose back-off
 * has passed.
 */
export function createAccountCleanupsRepository(db: Database) {
  const queue = createJobQueue(db, {
    table: accountCleanups,
    enqueuedAt: accountCleanups.requestedAt,
    leaseMs: CLEANUP_LEASE_MS,
  });

  return {
    ...queue,
    /** The jobs of one address, back-off or not: an add of that address must finish them first. */
    takeFor: (email: string, limit: number) => queue.takeAny(limit, eq(accountCleanups.email, email)),

    /** The oldest pending jobs and how many there are, for the admin. */
    async pending(limit: number): Promise<{ items: AccountCleanup[]; total: number }> {
      const [items, [counted]] = await Promise.all([
        db.select().from(accountCleanups).orderBy(asc(accountCleanups.requestedAt)).limit(limit),
        db.select({ total: count() }).from(accountCleanups),
      ]);
      return { items, total: counted?.total ?? 0 };
    },

    /** Which of these addresses have a clean-up pending: one query for a bulk add. */
    async pendingAmong(emails: readonly string[]): Promise<Set<string>> {
      if (emails.length === 0) return new Set();
      const rows = await db
        .selectDistinct({ email: accountCleanups.email })
        .from(accountCleanups)
        .where(inArray(accountCleanups.email, [...emails]));
      return new Set(rows.map((row) => row.email));
    },

    async pendingFor(email: string): Promise<number> {
      const [counted] = await db
        .select({ total: count() })
        .from(accountCleanups)
        .where(eq(accountCleanups.email, email));
      return counted?.total ?? 0;
    },
  };
}

export type AccountCleanupsRepository = ReturnType<typeof createAccountCleanupsRepository>;
