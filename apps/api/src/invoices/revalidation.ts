import { and, asc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import type { Database } from '../db/client.ts';
import { invoices, invoiceVersions } from '../db/schema.ts';
import type { ReadInvoice, ReadInvoiceLimits } from './e-invoice/read-invoice.ts';
import { RULES_VERSION } from './e-invoice/validation/rules/index.ts';
import type { ValidationReport, ValidationStatus } from './e-invoice/validation/validate.ts';

export interface RevalidationDeps {
  db: Database;
  blobStore: Pick<BlobStore, 'open'>;
  /** The reader pool, as ingestion reads: the same memory and time budget for each stored XML. */
  readInvoice: (bytes: Uint8Array, limits: ReadInvoiceLimits) => Promise<ReadInvoice>;
  audit: Pick<AuditTrail, 'required'>;
  maxBytes: number;
}

export interface RevalidationOptions {
  batchSize: number;
  /** Who runs it, for the audit log: the CLI's `cli:<user>`. */
  actor: string;
  /** After each batch, with the totals so far: the CLI prints a line. */
  onBatch?: (progress: RevalidationSummary) => void;
  /** A version that could not be read again: which, and why. */
  onFailure?: (failure: { parcelCode: string; versionId: number; reason: string }) => void;
}

export interface RevalidationSummary {
  rulesVersion: string;
  /** How many versions needed it when the run began. */
  due: number;
  checked: number;
  byStatus: Record<ValidationStatus, number>;
  /** Versions whose outcome (valid, warnings, invalid) is not what their report said before. */
  statusChanged: number;
  failed: number;
}

/**
 * A stored version needs a new report when it has an e-invoice XML and no report of the rules' present
 * edition: made by an earlier edition, or none (stored before the check, or while the operator kept none).
 */
const needsReport = sql`(${invoiceVersions.facts} -> 'validation' ->> 'rulesVersion') is distinct from ${RULES_VERSION}`;

/** How many stored versions the present rules have not checked yet. */
export async function countDue(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(invoiceVersions)
    .where(and(isNotNull(invoiceVersions.xmlSha256), isNotNull(invoiceVersions.facts), needsReport));
  return Number(row?.count ?? 0);
}

/**
 * Validates stored versions again with the present rules, a batch at a time in the order they were stored,
 * and stores each new report in the version's facts (and the current invoice's, when it is that version).
 * Resumable and idempotent by what it selects: a version already checked by this edition is never selected
 * again, so a run cut off anywhere is finished by running it again, and a run after that changes nothing. A
 * version whose XML cannot be read again is named and left as it was. A version the rules find invalid now
 * is flagged, never removed: whatever the policy at ingestion, it was taken and may have been paid.
 */
export async function revalidateStoredVersions(
  deps: RevalidationDeps,
  options: RevalidationOptions,
): Promise<RevalidationSummary> {
  const summary: RevalidationSummary = {
    rulesVersion: RULES_VERSION,
    due: await countDue(deps.db),
    checked: 0,
    byStatus: { valid: 0, warnings: 0, invalid: 0 },
    statusChanged: 0,
    failed: 0,
  };
  let afterId = 0;
  for (;;) {
    const batch = await deps.db
      .select({
        id: invoiceVersions.id,
        parcelCode: invoiceVersions.parcelCode,
        sha256: invoiceVersions.sha256,
        xmlSha256: invoiceVersions.xmlSha256,
        facts: invoiceVersions.facts,
      })
      .from(invoiceVersions)
      .where(
        and(
          gt(invoiceVersions.id, afterId),
          isNotNull(invoiceVersions.xmlSha256),
          isNotNull(invoiceVersions.facts),
          needsReport,
        ),
      )
      .orderBy(asc(invoiceVersions.id))
      .limit(options.batchSize);
    if (batch.length === 0) break;
    for (const version of batch) {
      const report = await reportOf(deps, version.xmlSha256!).catch((error: unknown) => error as Error);
      if (report instanceof Error) {
        summary.failed += 1;
        options.onFailure?.({ parcelCode: version.parcelCode, versionId: version.id, reason: report.message });
        continue;
      }
      const before = version.facts?.validation?.status;
      await store(deps.db, version, report);
      summary.checked += 1;
      summary.byStatus[report.status] += 1;
      if (before && before !== report.status) {
        summary.statusChanged += 1;
        await deps.audit.required({
          actor: options.actor,
          action: 'invoice.revalidate',
          target: version.parcelCode,
          outcome: 'ok',
          detail: `version ${version.id}: ${before} -> ${report.status} (rules ${RULES_VERSION})`,
        });
      }
    }
    afterId = batch.at(-1)!.id;
    options.onBatch?.(summary);
  }
  await deps.audit.required({
    actor: options.actor,
    action: 'invoice.revalidate',
    target: 'stored e-invoices',
    outcome: summary.failed > 0 ? 'failed' : 'ok',
    detail:
      `rules ${RULES_VERSION}: ${summary.checked} versions checked (${summary.byStatus.valid} valid, ` +
      `${summary.byStatus.warnings} warnings, ${summary.byStatus.invalid} invalid), ` +
      `${summary.statusChanged} changed outcome, ${summary.failed} could not be read`,
  });
  return summary;
}

/** The version's XML, read again as ingestion read it; the report of the present rules. */
async function reportOf(deps: RevalidationDeps, xmlSha256: string): Promise<ValidationReport> {
  const blob = await deps.blobStore.open(xmlSha256);
  if (!blob) throw new Error(`its XML (${xmlSha256}) is missing from the invoice store`);
  const chunks: Buffer[] = [];
  for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const read = await deps.readInvoice(bytes, {
    maxAttachmentBytes: deps.maxBytes,
    maxDecodedBytes: 2 * deps.maxBytes,
    // The stored XML was taken under the upload limit; a rendering's attachment may be up to that size.
    xml: { maxChars: Math.max(deps.maxBytes, bytes.length), maxDepth: 64, maxElements: 500_000 },
  });
  if (!read.validation) throw new Error('its XML is no longer read as a CII or UBL invoice');
  return read.validation;
}

/** The report into the version's facts, and into the current invoice's when that is this version's bytes. */
async function store(
  db: Database,
  version: { id: number; parcelCode: string; sha256: string },
  report: ValidationReport,
): Promise<void> {
  const withReport = (column: typeof invoiceVersions.facts | typeof invoices.facts) =>
    sql`jsonb_set(${column}, '{validation}', ${JSON.stringify(report)}::jsonb)`;
  await db.transaction(async (tx) => {
    await tx
      .update(invoiceVersions)
      .set({ facts: withReport(invoiceVersions.facts) })
      .where(eq(invoiceVersions.id, version.id));
    await tx
      .update(invoices)
      .set({ facts: withReport(invoices.facts) })
      .where(
        and(
          eq(invoices.parcelCode, version.parcelCode),
          eq(invoices.sha256, version.sha256),
          isNotNull(invoices.facts),
        ),
      );
  });
}
