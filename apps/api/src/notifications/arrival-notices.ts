import type { ArrivalNotice } from '@portal/contract';
import { and, asc, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { createJobQueue } from '../background/job-queue.ts';
import type { Database } from '../db/client.ts';
import { invoiceArrivalNotices } from '../db/schema.ts';

export type ArrivalNoticeRow = typeof invoiceArrivalNotices.$inferSelect;

/** How long a request waits for its invoice. */
export const NOTICE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** Requests a person may have waiting at once: enough for a week's deliveries, too few to fish with. */
export const MAX_NOTICES_PER_PERSON = 20;
/** How long one instance may take to send one mail before another may take the job up. */
const LEASE_MS = 60_000;

export const noticeOf = (row: ArrivalNoticeRow): ArrivalNotice => ({
  id: row.id,
  parcelCode: row.parcelCode,
  requestedAt: row.requestedAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  arrivedAt: row.arrivedAt?.toISOString() ?? null,
});

/**
 * The durable queue behind "tell me when it arrives": a row waits for its parcel's invoice, is marked when a
 * version is stored (in that version's transaction, repository.ts), and is then a mail job on the background
 * job queue (background/job-queue.ts: leased on the database's clock), retried with back-off until sent.
 * Sent, cancelled, expired and refused rows are deleted.
 */
export function createArrivalNoticesRepository(db: Database) {
  const queue = createJobQueue(db, {
    table: invoiceArrivalNotices,
    // A request is a mail job once its invoice is stored, and waits as one from then.
    isJob: isNotNull(invoiceArrivalNotices.arrivedAt),
    enqueuedAt: invoiceArrivalNotices.arrivedAt,
    leaseMs: LEASE_MS,
  });
  return {
    /**
     * A person's request, made again: the same row with a fresh expiry (one per person and code). 'full' when
     * they already have the most a person may have waiting.
     */
    async request(input: { userEmail: string; parcelCode: string; link: string; now?: Date }) {
      const now = input.now ?? new Date();
      const expiresAt = new Date(now.getTime() + NOTICE_LIFETIME_MS);
      return db.transaction(async (tx) => {
        // Serializes one person's requests, so two at once cannot both pass the count.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`arrival-notices:${input.userEmail}`}))`);
        const [existing] = await tx
          .select()
          .from(invoiceArrivalNotices)
          .where(
            and(
              eq(invoiceArrivalNotices.userEmail, input.userEmail),
              eq(invoiceArrivalNotices.parcelCode, input.parcelCode),
            ),
          );
        if (existing) {
          if (existing.arrivedAt) return { status: 'existing' as const, row: existing };
          const [renewed] = await tx
            .update(invoiceArrivalNotices)
            .set({ expiresAt, link: input.link })
            .where(eq(invoiceArrivalNotices.id, existing.id))
            .returning();
          return { status: 'existing' as const, row: renewed ?? existing };
        }
        const [count] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(invoiceArrivalNotices)
          .where(and(eq(invoiceArrivalNotices.userEmail, input.userEmail), gt(invoiceArrivalNotices.expiresAt, now)));
        if ((count?.count ?? 0) >= MAX_NOTICES_PER_PERSON) return { status: 'full' as const };
        const [row] = await tx
          .insert(invoiceArrivalNotices)
          .values({
            userEmail: input.userEmail,
            parcelCode: input.parcelCode,
            link: input.link,
            requestedAt: now,
            expiresAt,
          })
          .returning();
        if (!row) throw new Error('no arrival notice row came back');
        return { status: 'created' as const, row };
      });
    },

    /** A person's own requests that still stand, oldest first. */
    listFor(userEmail: string, now = new Date()): Promise<ArrivalNoticeRow[]> {
      return db
        .select()
        .from(invoiceArrivalNotices)
        .where(
          and(
            eq(invoiceArrivalNotices.userEmail, userEmail),
            or(gt(invoiceArrivalNotices.expiresAt, now), isNotNull(invoiceArrivalNotices.arrivedAt)),
          ),
        )
        .orderBy(asc(invoiceArrivalNotices.id));
    },

    /** Deletes one of the person's own requests; false when they have no such request. */
    async cancel(userEmail: string, id: number): Promise<ArrivalNoticeRow | undefined> {
      const [row] = await db
        .delete(invoiceArrivalNotices)
        .where(and(eq(invoiceArrivalNotices.id, id), eq(invoiceArrivalNotices.userEmail, userEmail)))
        .returning();
      return row;
    },

    /** The mail jobs (requests whose invoice has arrived), on the background job queue. */
    ...queue,

    /** Forgets requests whose invoice never came within their lifetime; a mail already due is kept. */
    async deleteExpired(now = new Date()): Promise<number> {
      const deleted = await db
        .delete(invoiceArrivalNotices)
        .where(and(isNull(invoiceArrivalNotices.arrivedAt), lte(invoiceArrivalNotices.expiresAt, now)))
        .returning({ id: invoiceArrivalNotices.id });
      return deleted.length;
    },
  };
}

export type ArrivalNoticesRepository = ReturnType<typeof createArrivalNoticesRepository>;

/**
 * Marks a parcel's standing requests as due, in the transaction that stores the parcel's new version: an
 * invoice that is stored has its mail queued, whatever happens to the process after.
 */
export async function markArrived(tx: Database, parcelCode: string, now: Date): Promise<void> {
  await tx
    .update(invoiceArrivalNotices)
    // Due at once by the database's clock, the one every instance's worker compares it with.
    .set({ arrivedAt: now, nextAttemptAt: sql`now()` })
    .where(
      and(
        eq(invoiceArrivalNotices.parcelCode, parcelCode),
        isNull(invoiceArrivalNotices.arrivedAt),
        gt(invoiceArrivalNotices.expiresAt, now),
      ),
    );
}
