import type { InvoiceWarningAcknowledged } from '@portal/contract';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { DomainError } from '../domain-error.ts';
import type { InvoiceWarningsRepository } from './warnings-repository.ts';

export interface AcknowledgeWarningDeps {
  warnings: InvoiceWarningsRepository;
  /** Writes one entry; never throws (the domain's recordAudit). */
  audit: Pick<AuditTrail, 'bestEffort'>;
}

/**
 * The second person's look at a warning: an administrator who did not upload the version that raised it
 * clears it from the invoice. Every attempt is in the audit log, the refused ones with why, so a reviewer
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
      const acknowledged = await deps.warnings.acknowledge(input);
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
