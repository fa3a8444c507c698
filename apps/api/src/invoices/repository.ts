import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { invoices, invoiceVersions, invoiceWarnings } from '../db/schema.ts';
import { createBoundedCache } from '../lib/bounded-cache.ts';
import { AMOUNT_KINDS, BANK_DETAILS_KINDS, warningsFor, type RaisedWarning } from './change-guard.ts';
import type { StoredInvoiceFacts } from './e-invoice/stored-facts.ts';
import type { VisibleAccounts } from './e-invoice/visible-text.ts';
import { searchTermsOf } from './search-terms.ts';
import { insertWarnings, pendingMarks } from './warnings-repository.ts';
import { markArrived } from '../notifications/arrival-notices.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceVersionRow = typeof invoiceVersions.$inferSelect;
/** A version with the warnings it raised, as the history shows it. */
export type VersionWithWarnings = InvoiceVersionRow & {
  warnings: { kind: (typeof invoiceWarnings.$inferSelect)['kind']; detail: string; acknowledged: boolean }[];
};
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

/** A warning the new version raised, with its id: the audit log names it, the acknowledgement uses it. */
export interface RecordedWarning extends RaisedWarning {
  id: number;
}

export interface RecordedVersion {
  status: RecordOutcome;
  warnings: RecordedWarning[];
}

/** What ingestion read beyond the row: the accounts a PDF's pages show, held against its XML and the versions before. */
export interface VersionEvidence {
  visibleAccounts: VisibleAccounts | null;
}

/**
 * How long a download may use the current-invoice row it read before. Writes through this repository evict
 * at once; only another process's import (the CLI on PostgreSQL) is seen up to this much later, and what
 * is served meanwhile is the previous version, whose bytes are never deleted.
 */
export const CURRENT_INVOICE_TTL_MS = 2000;

/** A version's own marks: when it raised a warning about the accounts or the amount. */
function marksOf(raised: RaisedWarning[], now: Date) {
  const raisedAny = (kinds: readonly string[]) => raised.some((warning) => kinds.includes(warning.kind));
  return {
    bankDetailsChangedAt: raisedAny(BANK_DETAILS_KINDS) ? now : null,
    amountChangedAt: raisedAny(AMOUNT_KINDS) ? now : null,
  };
}

export function createInvoicesRepository(db: Database) {
  const current = createBoundedCache<InvoiceRow>({ ttlMs: CURRENT_INVOICE_TTL_MS, maxEntries: 10_000 });
  // One read of a code's row at a time: when its entry ran out under load, every download of that moment (a
  // client's dozens in parallel) read the row again, each on a pool connection of its own.
  const reading = new Map<string, { evictions: number; row: Promise<InvoiceRow | undefined> }>();
  // Counts this process's writes: a read begun before one is neither joined nor remembered after it.
  let evictions = 0;
  const evictCurrent = (parcelCode: string) => {
    evictions++;
    current.delete(parcelCode);
  };

  async function findByParcelCode(parcelCode: string): Promise<InvoiceRow | undefined> {
    const [row] = await db.select().from(invoices).where(eq(invoices.parcelCode, parcelCode)).limit(1);
    return row;
  }

  return {
    findByParcelCode,

    /**
     * findByParcelCode for the download path, which asks for the same few codes over and over: a remembered
     * row is answered without a promise (callers `await` it).
     */
    findCurrent(parcelCode: string): InvoiceRow | Promise<InvoiceRow | undefined> {
      const hit = current.peek(parcelCode);
      if (hit) return hit;
      const underWay = reading.get(parcelCode);
      if (underWay?.evictions === evictions) return underWay.row;
      const startedAt = evictions;
      const row = findByParcelCode(parcelCode).then((found) => {
        // Misses are not remembered: an invoice must show up as soon as it is stored.
        if (found && startedAt === evictions) current.set(parcelCode, found);
        return found;
      });
      reading.set(parcelCode, { evictions: startedAt, row });
      const done = () => {
        if (reading.get(parcelCode)?.row === row) reading.delete(parcelCode);
      };
      row.then(done, done);
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
    async recordVersion(
      version: NewInvoiceVersion,
      evidence: VersionEvidence = { visibleAccounts: null },
    ): Promise<RecordedVersion> {
      evictCurrent(version.parcelCode);
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
          .values({ ...row, ...searchTermsOf(row.facts), bankDetailsChangedAt: null, amountChangedAt: null })
          .onConflictDoNothing({ target: invoices.parcelCode })
          .returning({ parcelCode: invoices.parcelCode });
        if (!inserted) {
          const [currentRow] = await tx
            .select({ sha256: invoices.sha256 })
            .from(invoices)
            .where(eq(invoices.parcelCode, version.parcelCode))
            .for('update');
          if (currentRow?.sha256 === version.sha256) return { status: 'unchanged', warnings: [] };
        }
        // Every earlier version, newest first: each term is held against the last value it ever had, so
        // neither a version without it nor a plain PDF in between resets the comparison.
        const history = inserted
          ? []
          : await tx
              .select({
                format: invoiceVersions.format,
                facts: invoiceVersions.facts,
                visibleAccounts: invoiceVersions.visibleAccounts,
              })
              .from(invoiceVersions)
              .where(eq(invoiceVersions.parcelCode, version.parcelCode))
              .orderBy(desc(invoiceVersions.id));
        const raised = warningsFor(history, { ...row, visibleAccounts: evidence.visibleAccounts });
        const [stored] = await tx
          .insert(invoiceVersions)
          .values({ ...row, ...marksOf(raised, now), visibleAccounts: evidence.visibleAccounts })
          .returning({ id: invoiceVersions.id });
        if (!stored) throw new Error(`no version row came back for ${version.parcelCode}`);
        const warnings = await insertWarnings(tx, {
          parcelCode: version.parcelCode,
          versionId: stored.id,
          raisedBy: version.uploadedBy,
          raisedAt: now,
          warnings: raised,
        });
        // The current row says what is still unacknowledged, whatever this version says: a later version
        // never clears a warning, only a second person does.
        const marks = await pendingMarks(tx, version.parcelCode);
        await tx
          .update(invoices)
          .set({ ...row, ...searchTermsOf(row.facts), ...marks })
          .where(eq(invoices.parcelCode, version.parcelCode));
        // Whoever asked to be told when this parcel's invoice arrives is queued a mail with this version.
        await markArrived(tx, version.parcelCode, now);
        return { status: inserted ? 'created' : 'replaced', warnings };
      });
      // Again after the commit: a download between the first eviction and the commit re-read the old row.
      evictCurrent(version.parcelCode);
      return outcome;
    },

    /** Every version of a parcel's invoice, newest first, each with the warnings it raised. */
    async listVersions(parcelCode: string): Promise<VersionWithWarnings[]> {
      const versions = await db
        .select()
        .from(invoiceVersions)
        .where(eq(invoiceVersions.parcelCode, parcelCode))
        .orderBy(desc(invoiceVersions.id));
      if (versions.length === 0) return [];
      const raised = await db
        .select({
          versionId: invoiceWarnings.versionId,
          kind: invoiceWarnings.kind,
          detail: invoiceWarnings.detail,
          acknowledgedAt: invoiceWarnings.acknowledgedAt,
        })
        .from(invoiceWarnings)
        .where(
          and(
            eq(invoiceWarnings.parcelCode, parcelCode),
            inArray(
              invoiceWarnings.versionId,
              versions.map((version) => version.id),
            ),
          ),
        )
        .orderBy(asc(invoiceWarnings.id));
      return versions.map((version) => ({
        ...version,
        warnings: raised
          .filter((warning) => warning.versionId === version.id)
          .map((warning) => ({
            kind: warning.kind,
            detail: warning.detail,
            acknowledged: warning.acknowledgedAt !== null,
          })),
      }));
    },

    /** One version of a parcel's invoice; undefined when the code has no such version. */
    async findVersion(parcelCode: string, versionId: number): Promise<InvoiceVersionRow | undefined> {
      const [row] = await db
        .select()
        .from(invoiceVersions)
        .where(and(eq(invoiceVersions.parcelCode, parcelCode), eq(invoiceVersions.id, versionId)))
        .limit(1);
      return row;
    },

    /** Forgets the cached current row, after a change made beside recordVersion (an acknowledgement). */
    evict(parcelCode: string) {
      evictCurrent(parcelCode);
    },
  };
}

export type InvoicesRepository = ReturnType<typeof createInvoicesRepository>;
