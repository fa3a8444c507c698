import { and, asc, count, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { accountCleanups } from '../db/schema.ts';

export type AccountCleanup = typeof accountCleanups.$inferSelect;

/** How long one instance holds a clean-up it took up: longer than the two identity calls can take. */
export const CLEANUP_LEASE_MS = 60_000;

const seconds = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;
const leaseIsFree = () => or(isNull(accountCleanups.leasedUntil), lt(accountCleanups.leasedUntil, sql`now()`));

/**
 * The queue of sign-in accounts still to be signed out and deleted after a removal (migration 0007). A job
 * is added in the removal's own transaction (`UsersRepository.removeQueuingCleanup`), already leased to the
 * request that removed the row, which tries it at once. Any instance takes up a job whose lease ran out and
 * whose back-off has passed; taking it up is one UPDATE over rows locked with SKIP LOCKED, so two instances
 * never take the same one. Times are the database's, the same for every instance.
 */
export function createAccountCleanupsRepository(db: Database) {
  /** Leases the jobs `where` picks (and whose lease is free), counting the attempt; answers them. */
  async function take(where: SQL | undefined, limit: number): Promise<AccountCleanup[]> {
    const free = db
      .select({ id: accountCleanups.id })
      .from(accountCleanups)
      .where(and(leaseIsFree(), where))
      .orderBy(asc(accountCleanups.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(accountCleanups)
      .set({
        leasedUntil: sql`now() + ${seconds(CLEANUP_LEASE_MS)}`,
        attempts: sql`${accountCleanups.attempts} + 1`,
      })
      .where(inArray(accountCleanups.id, free))
      .returning();
  }

  return {
    /** Jobs whose back-off has passed, for the background retry. */
    takeDue: (limit: number) => take(lte(accountCleanups.nextAttemptAt, sql`now()`), limit),
    /** Every job nobody is at right now, back-off or not: an operator or an add asked for it now. */
    takeAny: (limit: number) => take(undefined, limit),
    /** The jobs of one address, back-off or not: an add of that address must finish them first. */
    takeFor: (email: string, limit: number) => take(eq(accountCleanups.email, email), limit),

    /** Done: the account is gone (the audit log keeps the history). */
    async complete(id: number) {
      await db.delete(accountCleanups).where(eq(accountCleanups.id, id));
    },

    /** Failed this time: tried again after `delayMs`, by whichever instance comes first. */
    async retryLater(id: number, failure: { error: string; delayMs: number }) {
      await db
        .update(accountCleanups)
        .set({
          lastError: failure.error,
          nextAttemptAt: sql`now() + ${seconds(failure.delayMs)}`,
          leasedUntil: null,
        })
        .where(eq(accountCleanups.id, id));
    },

    /** The oldest pending jobs and how many there are, for the admin. */
    async pending(limit: number): Promise<{ items: AccountCleanup[]; total: number }> {
      const [items, [counted]] = await Promise.all([
        db.select().from(accountCleanups).orderBy(asc(accountCleanups.requestedAt)).limit(limit),
        db.select({ total: count() }).from(accountCleanups),
      ]);
      return { items, total: counted?.total ?? 0 };
    },

    /** How many jobs wait and the oldest one's age, by the database's clock: one cheap query, for the metrics. */
    async queueStats(): Promise<{ pending: number; oldestAgeSeconds: number }> {
      const [row] = await db
        .select({
          pending: count(),
          oldestAgeSeconds: sql<
            string | number
          >`coalesce(extract(epoch from now() - min(${accountCleanups.requestedAt})), 0)`,
        })
        .from(accountCleanups);
      return { pending: row?.pending ?? 0, oldestAgeSeconds: Math.max(0, Number(row?.oldestAgeSeconds ?? 0)) };
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
