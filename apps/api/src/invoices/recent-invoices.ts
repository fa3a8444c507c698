import type { RecentInvoice } from '@portal/contract';
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { invoiceOpens, invoices, users } from '../db/schema.ts';

/** How many invoices a person's "Recently opened" list keeps. */
export const RECENT_INVOICES = 20;

/** How long opens wait to be written together (the background registry's flush loop): a burst of the same person's opens becomes one row's update. */
export const RECENT_INVOICES_FLUSH_MS = 1_000;
/** Opens kept while the database is away; past this the oldest are dropped (a list, not a record). */
const MAX_PENDING = 10_000;
/** How long closing waits for the last write: a database that is away must not hold the shutdown. */
const CLOSE_WRITE_MS = 2_000;

interface PendingOpen {
  userEmail: string;
  parcelCode: string;
  openedAt: Date;
}

/**
 * A person's own "Recently opened" list: one row per invoice they opened (its PDF), newest first, trimmed to
 * the newest few, so the table stays a few dozen rows a person whatever they open.
 *
 * Opens are noted in memory and written together once a second: writing two statements for every download
 * cost the read path a third of its throughput. The person's own list, read on this instance, writes what is
 * pending first, so it is exact there; read on another instance it may miss the last second's opens.
 */
export function createRecentInvoices(db: Database, options: { log?: (error: unknown) => void } = {}) {
  let pending = new Map<string, PendingOpen>();
  let writing: Promise<void> = Promise.resolve();

  const note = (open: PendingOpen) => {
    const key = `${open.userEmail}\n${open.parcelCode}`;
    const known = pending.get(key);
    if (known && known.openedAt >= open.openedAt) return;
    pending.delete(key);
    pending.set(key, open);
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
  };

  async function writePending(): Promise<void> {
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    try {
      // Two single statements, not a transaction: the trim is idempotent, so one lost to an outage is redone
      // by the next write, and the list needs no more than that.
      // Only the opens of people still on the list: one removed since their open (in the same second, say)
      // has no row for theirs to reference, and one such open would fail the whole batch, every time.
      const rows = sql.join(
        batch.map((open) => sql`(${open.userEmail}::text, ${open.parcelCode}::text, ${open.openedAt}::timestamptz)`),
        sql`, `,
      );
      await db.execute(sql`
        insert into ${invoiceOpens} (user_email, parcel_code, opened_at)
        select opens.user_email, opens.parcel_code, opens.opened_at
        from (values ${rows}) as opens (user_email, parcel_code, opened_at)
        join ${users} on ${users.email} = opens.user_email
        on conflict (user_email, parcel_code)
        do update set opened_at = greatest(${invoiceOpens}.opened_at, excluded.opened_at)`);
      const people = [...new Set(batch.map((open) => open.userEmail))];
      await db.execute(sql`
        delete from ${invoiceOpens} as opens
        using (
          select user_email, parcel_code,
                 row_number() over (partition by user_email order by opened_at desc, parcel_code desc) as place
          from ${invoiceOpens}
          where user_email in ${people}
        ) as ranked
        where opens.user_email = ranked.user_email and opens.parcel_code = ranked.parcel_code
          and ranked.place > ${RECENT_INVOICES}`);
    } catch (error) {
      // Kept for the next write, unless newer opens of the same invoices came meanwhile.
      for (const open of batch) note(open);
      throw error;
    }
  }

  /** One write at a time; a call waits for the one under way, then writes what is left. */
  const flush = () => (writing = writing.catch(() => {}).then(writePending));

  return {
    /** Notes an open; written within a second by the flush loop (or when the person's list is read here). Never throws. */
    recordOpen(userEmail: string, parcelCode: string, at = new Date()): void {
      note({ userEmail, parcelCode, openedAt: at });
    },

    /** Writes what is pending now (the list, the tests, closing). */
    flush,

    /** The flush loop's write: a failure is logged, and what it held is kept for the next write. */
    writeDue: () => flush().catch((error: unknown) => options.log?.(error)),

    /** Writes what is pending, waiting at most a moment for a database that is away. */
    async close(): Promise<void> {
      let waited: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        flush().catch((error: unknown) => options.log?.(error)),
        new Promise((resolve) => (waited = setTimeout(resolve, CLOSE_WRITE_MS))),
      ]);
      clearTimeout(waited);
    },

    /**
     * The list as the person sees it: only invoices that are still there to open (the join), with what names
     * one at a glance. Nothing of anyone else's is read.
     */
    async list(userEmail: string): Promise<RecentInvoice[]> {
      if ([...pending.values()].some((open) => open.userEmail === userEmail)) {
        // A write that fails (the database away, anyone's open in the batch) costs the list its last second,
        // never the answer: the opens stay pending for the next write.
        await flush().catch((error: unknown) => options.log?.(error));
      }
      const rows = await db
        .select({
          parcelCode: invoiceOpens.parcelCode,
          openedAt: invoiceOpens.openedAt,
          format: invoices.format,
          facts: invoices.facts,
        })
        .from(invoiceOpens)
        .innerJoin(invoices, eq(invoices.parcelCode, invoiceOpens.parcelCode))
        .where(eq(invoiceOpens.userEmail, userEmail))
        .orderBy(desc(invoiceOpens.openedAt), desc(invoiceOpens.parcelCode))
        .limit(RECENT_INVOICES);
      return rows.map((row) => ({
        parcelCode: row.parcelCode,
        openedAt: row.openedAt.toISOString(),
        format: row.format,
        invoiceNumber: row.facts?.invoiceNumber ?? null,
        typeCode: row.facts?.typeCode ?? null,
        sellerName: row.facts?.sellerName ?? null,
        amountDue: row.facts?.amountDue ?? null,
        currency: row.facts?.currency ?? null,
      }));
    },

    /** For tests and the operator: how many rows a person has (bounded by RECENT_INVOICES). */
    async countFor(userEmail: string): Promise<number> {
      await flush();
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(invoiceOpens)
        .where(eq(invoiceOpens.userEmail, userEmail));
      return row?.count ?? 0;
    },
  };
}

export type RecentInvoices = ReturnType<typeof createRecentInvoices>;
