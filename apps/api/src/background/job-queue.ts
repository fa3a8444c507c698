import { and, asc, count, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';

/** The columns every queue table has, under these names: what a lease, a back-off and a retry need. */
export interface QueueColumns {
  id: PgColumn;
  attempts: PgColumn;
  nextAttemptAt: PgColumn;
  leasedUntil: PgColumn;
  lastError: PgColumn;
}

export interface JobQueueShape<T extends PgTable & QueueColumns> {
  table: T;
  /** When a row became a job: the queue's age counts from here. */
  enqueuedAt: PgColumn;
  /** Which rows are jobs at all (a mail request waits for its invoice before it is one); every row when absent. */
  isJob?: SQL;
  /** How long one instance holds a job it took: longer than one try can take. */
  leaseMs: number;
}

export interface QueueStats {
  pending: number;
  oldestAgeSeconds: number;
}

/** The longest error text kept on a row: enough to read, never a whole stack or response body. */
const ERROR_CHARS = 500;

export const intervalOf = (ms: number) => sql`make_interval(secs => ${ms / 1000})`;

/**
 * A durable job queue in one table, on the database's clock: every lease, due time and age is `now()` in SQL,
 * never an instance's own clock, so instances whose clocks disagree still agree on who holds a job and when
 * it is due. Taking a job is one UPDATE over rows locked with SKIP LOCKED, which counts the attempt and leases
 * the job: two instances never take the same job, and a job whose holder died is taken again once its lease
 * runs out. Done jobs are deleted (the audit log keeps their history).
 */
export function createJobQueue<T extends PgTable & QueueColumns>(db: Database, shape: JobQueueShape<T>) {
  const { table, enqueuedAt, isJob, leaseMs } = shape;
  type Row = T['$inferSelect'];
  const leaseIsFree = () => or(isNull(table.leasedUntil), lt(table.leasedUntil, sql`now()`));
  const jobs = (where?: SQL) => and(isJob, where);

  /** Leases the jobs `where` picks whose lease is free, oldest due first, counting the attempt. */
  async function take(where: SQL | undefined, limit: number): Promise<Row[]> {
    const free = db
      .select({ id: table.id })
      .from(table as PgTable)
      .where(and(jobs(where), leaseIsFree()))
      .orderBy(asc(table.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    const taken = await db
      .update(table as PgTable)
      .set({ leasedUntil: sql`now() + ${intervalOf(leaseMs)}`, attempts: sql`${table.attempts} + 1` } as never)
      .where(inArray(table.id, free))
      .returning();
    return taken as Row[];
  }

  return {
    /** Jobs whose back-off has passed: what the worker's rounds take. */
    takeDue: (limit: number, where?: SQL) => take(and(lte(table.nextAttemptAt, sql`now()`), where), limit),
    /** Jobs nobody holds, back-off or not: an operator (or a request that needs one done) asked for it now. */
    takeAny: (limit: number, where?: SQL) => take(where, limit),

    /** Done: the row goes. */
    async complete(id: number): Promise<void> {
      await db.delete(table as PgTable).where(eq(table.id, id));
    },

    /** Failed this time: free again after `delayMs` from now (the database's now), for whichever instance is first. */
    async retryLater(id: number, failure: { error: string; delayMs: number }): Promise<void> {
      await db
        .update(table as PgTable)
        .set({
          lastError: failure.error.slice(0, ERROR_CHARS),
          nextAttemptAt: sql`now() + ${intervalOf(failure.delayMs)}`,
          leasedUntil: null,
        } as never)
        .where(eq(table.id, id));
    },

    /** How many jobs wait and the oldest one's age by the database's clock: one cheap query, for the metrics. */
    async stats(): Promise<QueueStats> {
      const [row] = await db
        .select({
          pending: count(),
          oldestAgeSeconds: sql<string | number>`coalesce(extract(epoch from now() - min(${enqueuedAt})), 0)`,
        })
        .from(table as PgTable)
        .where(jobs());
      return { pending: row?.pending ?? 0, oldestAgeSeconds: Math.max(0, Number(row?.oldestAgeSeconds ?? 0)) };
    },
  };
}

export type JobQueue<Row> = {
  takeDue(limit: number, where?: SQL): Promise<Row[]>;
  takeAny(limit: number, where?: SQL): Promise<Row[]>;
  complete(id: number): Promise<void>;
  retryLater(id: number, failure: { error: string; delayMs: number }): Promise<void>;
  stats(): Promise<QueueStats>;
};
