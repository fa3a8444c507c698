import { DomainError } from '../domain-error.ts';

/** What a refused upload is told to wait: reading and storing one invoice takes well under a second. */
export const INGEST_RETRY_AFTER_SECONDS = 2;

/** The audit reason of an upload refused because the instance is already reading as many as it may. */
export const INGEST_BUSY_REASON = 'ingest-busy';

/**
 * The per-instance limit on uploads being taken in at once (MAX_CONCURRENT_INGESTS). Each holds its body in
 * memory (up to the upload limit) and a reader worker (up to its heap limit) while it is read, so the limit
 * is what bounds an instance's memory under a burst. One over the limit is refused at once, before its body
 * is read, rather than queued: a queue would hold the bodies it was meant to bound, and the sender (the
 * ingestion service, or another instance behind the load balancer) can try again (HTTP 503, Retry-After).
 */
export function createIngestSlots(maxConcurrent: number) {
  let taken = 0;
  return {
    /** Takes a slot or refuses; the returned function gives it back (once). */
    take(): () => void {
      if (taken >= maxConcurrent) {
        throw new DomainError(
          'unavailable',
          `The portal is already taking in ${maxConcurrent} invoices at once. Please send this one again in ${INGEST_RETRY_AFTER_SECONDS} seconds.`,
          INGEST_BUSY_REASON,
          { retryAfterSeconds: INGEST_RETRY_AFTER_SECONDS },
        );
      }
      taken += 1;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        taken -= 1;
      };
    },
    get taken() {
      return taken;
    },
  };
}

export type IngestSlots = ReturnType<typeof createIngestSlots>;
