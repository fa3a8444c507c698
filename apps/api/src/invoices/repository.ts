import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { invoices, invoiceVersions } from '../db/schema.ts';
import { createBoundedCache } from '../lib/bounded-cache.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type RecordOutcome = 'created' | 'replaced' | 'unchanged';

export interface NewInvoiceVersion {
  parcelCode: string;
  sha256: string;
  size: number;
  uploadedBy: string;
}

/**
 * How long a download may use the current-invoice row it read before. Writes through this repository evict
 * at once; only another process's import (the CLI on PostgreSQL) is seen up to this much later, and what
 * is served meanwhile is the previous version, whose bytes are never deleted.
 */
export const CURRENT_INVOICE_TTL_MS = 2000;

export function createInvoicesRepository(db: Database) {
  const current = createBoundedCache<InvoiceRow>({ ttlMs: CURRENT_INVOICE_TTL_MS, maxEntries: 10_000 });

  async function findByParcelCode(parcelCode: string): Promise<InvoiceRow | undefined> {
    const [row] = await db.select().from(invoices).where(eq(invoices.parcelCode, parcelCode)).limit(1);
    return row;
  }

  return {
    findByParcelCode,

    /** findByParcelCode for the download path, which asks for the same few codes over and over. */
    async findCurrent(parcelCode: string): Promise<InvoiceRow | undefined> {
      const hit = current.peek(parcelCode);
      if (hit) return hit;
      const row = await findByParcelCode(parcelCode);
      // Misses are not remembered: an invoice must show up as soon as it is stored.
      if (row) current.set(parcelCode, row);
      return row;
    },

    /**
     * Makes `version` the current invoice of its parcel code and keeps it in the history, in one
     * transaction. The blob must already be stored: the row is only ever pointed at bytes that exist.
     *
     * Concurrent calls for one code serialize on the row: the insert of a second writer waits for the
     * first to commit, then it locks the row and compares. So every upload that changes the bytes gets
     * its own version row and the last committer wins; an upload of the bytes already current is
     * 'unchanged' and adds no version (nothing changed, and re-running an import must not grow history).
     */
    async recordVersion(version: NewInvoiceVersion): Promise<RecordOutcome> {
      current.delete(version.parcelCode);
      const outcome = await db.transaction(async (tx) => {
        const now = new Date();
        const [inserted] = await tx
          .insert(invoices)
          .values({ ...version, uploadedAt: now })
          .onConflictDoNothing({ target: invoices.parcelCode })
          .returning({ parcelCode: invoices.parcelCode });
        if (!inserted) {
          const [current] = await tx
            .select({ sha256: invoices.sha256 })
            .from(invoices)
            .where(eq(invoices.parcelCode, version.parcelCode))
            .for('update');
          if (current?.sha256 === version.sha256) return 'unchanged';
          await tx
            .update(invoices)
            .set({ sha256: version.sha256, size: version.size, uploadedBy: version.uploadedBy, uploadedAt: now })
            .where(eq(invoices.parcelCode, version.parcelCode));
        }
        await tx.insert(invoiceVersions).values({ ...version, uploadedAt: now });
        return inserted ? 'created' : 'replaced';
      });
      // Again after the commit: a download between the first eviction and the commit re-read the old row.
      current.delete(version.parcelCode);
      return outcome;
    },
  };
}

export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
