import type { AuditWriter } from './audit-writer.ts';
import type { AuditEvent, AuditRepository } from './repository.ts';

/**
 * The one way domain code writes the audit log, with what a failure to write means named at each call:
 * - `required`: written before the caller goes on, and a failure is the caller's failure (a deletion that
 *   cannot be audited does not happen; an upload whose audit fails is not answered as stored);
 * - `bestEffort`: written now, but a finished change never fails on its audit line, nor does a write error
 *   hide the error that stopped the change: it is logged instead;
 * - `queued`: folded with the identical entries of its minute and written in batches, for hot paths
 *   (downloads, facts) where the answer must not wait for the log;
 * - `refusal`: a refused request, folded per client, reason and minute, with a cap on rows a minute.
 */
export function createAuditTrail(deps: {
  repository: Pick<AuditRepository, 'record' | 'recordMany'>;
  writer: Pick<AuditWriter, 'add' | 'refuse'>;
  log: { error(details: object, message: string): void };
}) {
  return {
    required: (event: AuditEvent): Promise<void> => deps.repository.record(event),
    bestEffort: (event: AuditEvent): Promise<void> =>
      deps.repository
        .record(event)
        .catch((error: unknown) => deps.log.error({ err: error, event }, 'could not write the audit log')),
    /** `bestEffort` for many events at once, in one write. */
    bestEffortMany: (events: readonly AuditEvent[]): Promise<void> =>
      deps.repository
        .recordMany(events)
        .catch((error: unknown) =>
          deps.log.error({ err: error, events: events.length }, 'could not write the audit log'),
        ),
    queued: (event: Omit<AuditEvent, 'at'>): void => deps.writer.add(event),
    refusal: (refusal: Parameters<AuditWriter['refuse']>[0]): void => deps.writer.refuse(refusal),
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
