import type { InvoiceWarningAcknowledged } from '@portal/contract';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { DomainError } from '../domain-error.ts';
import type { AdminGrant, InvoiceWarningsRepository } from './warnings-repository.ts';

export interface AcknowledgeWarningDeps {
  warnings: InvoiceWarningsRepository;
  /** Writes one entry; never throws (the domain's recordAudit). */
  audit: Pick<AuditTrail, 'bestEffort'>;
  /** How the acknowledging administrator became one: who made them, who approved it, when. */
  adminGrantOf(email: string): Promise<AdminGrant | undefined>;
  /** Counts an acknowledgement that cleared a warning (the alert on it close to a promotion or reset). */
  onAcknowledged?: () => void;
}

/**
 * The second person's look at a warning: an administrator who did not upload the version that raised it,
 * was not made an administrator by its uploader and was one already when it was uploaded, clears it from
 * the invoice. Every attempt is in the audit log, the refused ones with why, so a reviewer
 * sees who tried to wave a changed account through.
 */
export function createWarningAcknowledger(deps: AcknowledgeWarningDeps) {
  return async function acknowledgeInvoiceWarning(input: {
    parcelCode: string;
    warningId: number;
    by: string;
  }): Promise<InvoiceWarningAcknowledged> {
    const base = { actor: input.by, action: 'invoice.warning-acknowledged', target: input.parcelCode } as const;
    try {
      const grant = await deps.adminGrantOf(input.by);
      const acknowledged = await deps.warnings.acknowledge({ ...input, grant });
      deps.onAcknowledged?.();
      await deps.audit.bestEffort({
        ...base,
        outcome: 'ok',
        detail: `${acknowledged.kind}: ${acknowledged.detail} (warning ${acknowledged.id})`,
      });
      return acknowledged;
    } catch (error) {
      if (error instanceof DomainError) {
        await deps.audit.bestEffort({
          ...base,
          outcome: 'refused',
          detail: `warning ${input.warningId}: ${error.reason}`,
        });
      }
      throw error;
    }
  };
}
