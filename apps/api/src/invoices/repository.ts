import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { invoices, invoiceVersions } from '../db/schema.ts';
import { createBoundedCache } from '../lib/bounded-cache.ts';
import { changeMarkers, type StoredInvoiceFacts } from './e-invoice/stored-facts.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type RecordOutcome = 'created' | 'replaced' | 'unchanged';

export interface NewInvoiceVersion {
  parcelCode: string;
  sha256: string;
  size: number;
  uploadedBy: string;
  /** What ingestion read from it; a version without these is a plain PDF. */
  format?: InvoiceRow['format'];
  facts?: StoredInvoiceFacts | null;
  xmlSha256?: string | null;
  xmlSize?: number | null;
  renderingSha256?: string | null;
  renderingSize?: number | null;
}

/** A replacement that changed the payment account or the amount due: what it was and what it is. */
export interface InvoiceChange {
  kind: 'bank-details' | 'amount';
  from: string;
  to: string;
}

export interface RecordedVersion {
  status: RecordOutcome;
  changes: InvoiceChange[];
}

/** The last four characters are enough to tell accounts apart in the audit log. */
const maskedAccount = (iban: string) => `…${iban.replace(/\s+/g, '').slice(-4)}`;

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
    async recordVersion(version: NewInvoiceVersion): Promise<RecordedVersion> {
      current.delete(version.parcelCode);
      const outcome = await db.transaction(async (tx): Promise<RecordedVersion> => {
        const now = new Date();
        const row = {
          ...version,
          format: version.format ?? 'pdf',
          facts: version.facts ?? null,
          uploadedAt: now,
        };
        const [inserted] = await tx
          .insert(invoices)
          .values({ ...row, bankDetailsChangedAt: null, amountChangedAt: null })
          .onConflictDoNothing({ target: invoices.parcelCode })
          .returning({ parcelCode: invoices.parcelCode });
        if (inserted) {
          await tx.insert(invoiceVersions).values(row);
          return { status: 'created', changes: [] };
        }
        const [currentRow] = await tx
          .select({ sha256: invoices.sha256 })
          .from(invoices)
          .where(eq(invoices.parcelCode, version.parcelCode))
          .for('update');
        if (currentRow?.sha256 === version.sha256) return { status: 'unchanged', changes: [] };
        // Compared with the last version that had facts: a plain PDF in between hides no change.
        const [previous] = await tx
          .select({
            facts: invoiceVersions.facts,
            bankDetailsChangedAt: invoiceVersions.bankDetailsChangedAt,
            amountChangedAt: invoiceVersions.amountChangedAt,
          })
          .from(invoiceVersions)
          .where(and(eq(invoiceVersions.parcelCode, version.parcelCode), isNotNull(invoiceVersions.facts)))
          .orderBy(desc(invoiceVersions.id))
          .limit(1);
        const markers = changeMarkers(previous, row.facts, now);
        await tx
          .update(invoices)
          .set({ ...row, ...markers })
          .where(eq(invoices.parcelCode, version.parcelCode));
        await tx.insert(invoiceVersions).values({ ...row, ...markers });
        const changes: InvoiceChange[] = [];
        const before = previous?.facts;
        if (before && row.facts && markers.bankDetailsChangedAt === now) {
          changes.push({
            kind: 'bank-details',
            from: maskedAccount(before.iban ?? ''),
            to: maskedAccount(row.facts.iban ?? ''),
          });
        }
        if (before && row.facts && markers.amountChangedAt === now) {
          changes.push({
            kind: 'amount',
            from: `${before.amountDue} ${before.currency ?? ''}`.trim(),
            to: `${row.facts.amountDue} ${row.facts.currency ?? ''}`.trim(),
          });
        }
        return { status: 'replaced', changes };
      });
      // Again after the commit: a download between the first eviction and the commit re-read the old row.
      current.delete(version.parcelCode);
      return outcome;
    },
  };
}

export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
