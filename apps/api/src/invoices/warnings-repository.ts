import type { InvoiceWarningAcknowledged } from '@portal/contract';
import { and, asc, desc, eq, inArray, isNull, max } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { invoices, invoiceVersions, invoiceWarnings } from '../db/schema.ts';
import { DomainError } from '../domain-error.ts';
import {
  AMOUNT_KINDS,
  BANK_DETAILS_KINDS,
  changeOf,
  type GuardedTerms,
  type RaisedWarning,
  SHOWN_ACCOUNTS_DETAIL,
  shownChangeOf,
} from './change-guard.ts';

export type InvoiceWarningRow = typeof invoiceWarnings.$inferSelect & {
  /** For a change of payment accounts or amount: the values before and after, whole, read from the versions. */
  change?: { before: GuardedTerms; after: GuardedTerms };
};

/** The warnings whose reader compares two values (old and new account, old and new amount). */
const COMPARED_KINDS: readonly InvoiceWarningRow['kind'][] = ['bank-details', 'amount'];

export const NO_WARNING_MESSAGE = 'This invoice has no such warning.';
export const ALREADY_ACKNOWLEDGED_MESSAGE = 'This warning has already been acknowledged.';
export const SECOND_PERSON_MESSAGE =
  'You uploaded the version that raised this warning: another administrator must acknowledge it.';
export const MADE_BY_UPLOADER_MESSAGE =
  'You were made an administrator by the person who uploaded the version that raised this warning: an administrator they did not make must acknowledge it.';
export const MADE_AFTER_MESSAGE =
  'You were made an administrator after the version that raised this warning was uploaded: an administrator who was one before must acknowledge it.';

/** How the acknowledging administrator became one (users.admin_granted_*); all null for those made before it was kept. */
export interface AdminGrant {
  adminGrantedBy: string | null;
  adminApprovedBy: string | null;
  adminGrantedAt: Date | null;
}

/**
 * Why this administrator is not a second person for a warning, or undefined when they are: not the uploader,
 * not made an administrator by the uploader (asked or approved), and an administrator already when it was raised.
 */
export function notASecondPerson(
  warning: { raisedBy: string; raisedAt: Date },
  by: string,
  grant: AdminGrant | undefined,
): DomainError | undefined {
  if (warning.raisedBy === by) return new DomainError('forbidden', SECOND_PERSON_MESSAGE, 'uploader');
  if (grant?.adminGrantedBy === warning.raisedBy || grant?.adminApprovedBy === warning.raisedBy)
    return new DomainError('forbidden', MADE_BY_UPLOADER_MESSAGE, 'made administrator by the uploader');
  if (grant?.adminGrantedAt && grant.adminGrantedAt.getTime() > warning.raisedAt.getTime())
    return new DomainError('forbidden', MADE_AFTER_MESSAGE, 'made administrator after the upload');
  return undefined;
}

/** Stores what a new version raised, in the transaction that stores the version. */
export async function insertWarnings(
  tx: Database,
  entry: { parcelCode: string; versionId: number; raisedBy: string; raisedAt: Date; warnings: RaisedWarning[] },
): Promise<(RaisedWarning & { id: number })[]> {
  if (entry.warnings.length === 0) return [];
  return tx
    .insert(invoiceWarnings)
    .values(
      entry.warnings.map((warning) => ({
        parcelCode: entry.parcelCode,
        versionId: entry.versionId,
        raisedBy: entry.raisedBy,
        raisedAt: entry.raisedAt,
        kind: warning.kind,
        detail: warning.detail,
      })),
    )
    .returning({ id: invoiceWarnings.id, kind: invoiceWarnings.kind, detail: invoiceWarnings.detail });
}

/**
 * The current invoice's two marks, from its unacknowledged warnings: what the release before reads, and
 * what a search by "changed bank details" can use without a join.
 */
export async function pendingMarks(tx: Database, parcelCode: string) {
  const latest = async (kinds: readonly RaisedWarning['kind'][]) => {
    const [row] = await tx
      .select({ at: max(invoiceWarnings.raisedAt) })
      .from(invoiceWarnings)
      .where(
        and(
          eq(invoiceWarnings.parcelCode, parcelCode),
          isNull(invoiceWarnings.acknowledgedAt),
          inArray(invoiceWarnings.kind, [...kinds]),
        ),
      );
    return row?.at ?? null;
  };
  return { bankDetailsChangedAt: await latest(BANK_DETAILS_KINDS), amountChangedAt: await latest(AMOUNT_KINDS) };
}

export function createInvoiceWarningsRepository(db: Database, options: { onChanged: (parcelCode: string) => void }) {
  return {
    /** The warnings on an invoice that no second person has acknowledged yet, oldest first. */
    async pending(parcelCode: string): Promise<InvoiceWarningRow[]> {
      const rows = await db
        .select()
        .from(invoiceWarnings)
        .where(and(eq(invoiceWarnings.parcelCode, parcelCode), isNull(invoiceWarnings.acknowledgedAt)))
        .orderBy(asc(invoiceWarnings.id));
      if (!rows.some((row) => COMPARED_KINDS.includes(row.kind))) return rows;
      // The versions are read again rather than the whole values stored with the warning: its detail masks
      // accounts for the audit log, and every version is kept, so what the guard compared can be said again.
      const versions = await db
        .select({
          id: invoiceVersions.id,
          format: invoiceVersions.format,
          facts: invoiceVersions.facts,
          visibleAccounts: invoiceVersions.visibleAccounts,
        })
        .from(invoiceVersions)
        .where(eq(invoiceVersions.parcelCode, parcelCode))
        .orderBy(desc(invoiceVersions.id));
      return rows.map((row) => {
        if (!COMPARED_KINDS.includes(row.kind)) return row;
        const raisedBy = versions.find((version) => version.id === row.versionId);
        const history = versions.filter((version) => version.id < row.versionId);
        if (row.detail.startsWith(SHOWN_ACCOUNTS_DETAIL)) {
          return { ...row, change: shownChangeOf(history, raisedBy ?? null) };
        }
        return {
          ...row,
          change: changeOf(
            history.map((version) => version.facts),
            raisedBy?.facts ?? null,
          ),
        };
      });
    },

    /**
     * Clears one warning, for an administrator who is a second person to the version that raised it
     * (`notASecondPerson`). The row is
     * locked while it is checked, so two acknowledgements at once end with one of them refused.
     */
    async acknowledge(input: {
      parcelCode: string;
      warningId: number;
      by: string;
      /** How `by` became an administrator: read before, checked here against the locked warning. */
      grant?: AdminGrant | undefined;
    }): Promise<InvoiceWarningAcknowledged> {
      const acknowledged = await db.transaction(async (tx) => {
        const [warning] = await tx
          .select()
          .from(invoiceWarnings)
          .where(and(eq(invoiceWarnings.id, input.warningId), eq(invoiceWarnings.parcelCode, input.parcelCode)))
          .for('update');
        if (!warning) throw new DomainError('not-found', NO_WARNING_MESSAGE, 'no-warning');
        if (warning.acknowledgedAt) throw new DomainError('conflict', ALREADY_ACKNOWLEDGED_MESSAGE, 'acknowledged');
        const refusal = notASecondPerson(warning, input.by, input.grant);
        if (refusal) throw refusal;
        const [updated] = await tx
          .update(invoiceWarnings)
          .set({ acknowledgedAt: new Date(), acknowledgedBy: input.by })
          .where(eq(invoiceWarnings.id, warning.id))
          .returning();
        await tx
          .update(invoices)
          .set(await pendingMarks(tx, input.parcelCode))
          .where(eq(invoices.parcelCode, input.parcelCode));
        return updated;
      });
      options.onChanged(input.parcelCode);
      if (!acknowledged?.acknowledgedAt || !acknowledged.acknowledgedBy) {
        throw new Error(`warning ${input.warningId} was not updated`);
      }
      return {
        ...warningOf(acknowledged),
        acknowledgedAt: acknowledged.acknowledgedAt.toISOString(),
        acknowledgedBy: acknowledged.acknowledgedBy,
      };
    },
  };
}

export type InvoiceWarningsRepository = ReturnType<typeof createInvoiceWarningsRepository>;

/** A warning as the HTTP API shows it: who raised it stays in the audit log. */
export const warningOf = (row: InvoiceWarningRow) => ({
  id: row.id,
  kind: row.kind,
  raisedAt: row.raisedAt.toISOString(),
  detail: row.detail,
  ...(row.change ? { change: row.change } : {}),
});
