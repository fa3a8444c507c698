import type { ArrivalNotice } from '@portal/contract';
import { and, asc, eq, gt, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
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
 * version is stored (in that version's transaction, repository.ts), and is then a mail job taken with a lease
 * and retried with back-off until sent. Sent, cancelled, expired and refused rows are deleted.
 */
export function createArrivalNoticesRepository(db: Database) {
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

    /** Takes one due mail job with a lease, counting the attempt; none when nothing is due. */
    async takeDue(now = new Date()): Promise<ArrivalNoticeRow | undefined> {
      const due = db
        .select({ id: invoiceArrivalNotices.id })
        .from(invoiceArrivalNotices)
        .where(
          and(
            isNotNull(invoiceArrivalNotices.arrivedAt),
            lte(invoiceArrivalNotices.nextAttemptAt, now),
            or(isNull(invoiceArrivalNotices.leasedUntil), lt(invoiceArrivalNotices.leasedUntil, now)),
          ),
        )
        .orderBy(asc(invoiceArrivalNotices.nextAttemptAt))
        .limit(1)
        .for('update', { skipLocked: true });
      const [row] = await db
        .update(invoiceArrivalNotices)
        .set({
          leasedUntil: new Date(now.getTime() + LEASE_MS),
          attempts: sql`${invoiceArrivalNotices.attempts} + 1`,
        })
        .where(sql`${invoiceArrivalNotices.id} = (${due})`)
        .returning();
      return row;
    },

    async complete(id: number): Promise<void> {
      await db.delete(invoiceArrivalNotices).where(eq(invoiceArrivalNotices.id, id));
    },

    async retryLater(id: number, input: { error: string; delayMs: number; now?: Date }): Promise<void> {
      const now = input.now ?? new Date();
      await db
        .update(invoiceArrivalNotices)
        .set({
          leasedUntil: null,
          lastError: input.error.slice(0, 500),
          nextAttemptAt: new Date(now.getTime() + input.delayMs),
        })
        .where(eq(invoiceArrivalNotices.id, id));
    },

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
    .set({ arrivedAt: now, nextAttemptAt: now })
    .where(
      and(
        eq(invoiceArrivalNotices.parcelCode, parcelCode),
        isNull(invoiceArrivalNotices.arrivedAt),
        gt(invoiceArrivalNotices.expiresAt, now),
      ),
    );
}
