import type { AuditEvent, AuditRepository, FoldedEntry } from './repository.ts';

const MINUTE_MS = 60_000;
/** How often the background registry writes what is queued. */
export const AUDIT_FLUSH_MS = 1_000;

export interface AuditWriterOptions {
  repository: AuditRepository;
  log: { error(details: object, message: string): void };
  /** Distinct (client, reason, minute) rows a minute may add; refusals beyond it count under client "*". */
  maxRefusalRowsPerMinute?: number;
  now?: () => number;
  /** Told how many entries were lost when a batch could not be written (the metrics count them). */
  onDropped?: (entries: number) => void;
}

/**
 * Audit entries from the hot paths (downloads, refusals), queued in memory and written in batches so a
 * request never waits for the audit log. Identical entries of one minute are folded into one row with a
 * count: a person downloading one invoice again and again adds a row a minute, not a row a request.
 * Refusals are folded per client too, and the number of rows a minute may add for them is capped, so a
 * flood of anonymous requests adds a bounded number of rows. A batch that cannot be written is lost, counted
 * and logged: the writer holds no timer of its own (the background registry flushes it), so a one-off job
 * that never starts the background work writes its entries when it closes.
 */
export function createAuditWriter(options: AuditWriterOptions) {
  const now = options.now ?? Date.now;
  const maxRows = options.maxRefusalRowsPerMinute ?? 1_000;
  let folded = new Map<string, FoldedEntry>();
  let minute = -1;
  const refusalKeysThisMinute = new Set<string>();
  let flushing: Promise<void> = Promise.resolve();
  /** Entries (each fold counted as often as it was added) accepted and not yet written or given up. */
  let pending = 0;

  async function write() {
    const batch = [...folded.values()];
    folded = new Map();
    const entries = batch.reduce((sum, entry) => sum + entry.count, 0);
    try {
      await options.repository.recordFolded(batch);
    } catch (error) {
      options.log.error({ err: error, entries: batch.length }, 'could not write the audit log');
      options.onDropped?.(entries);
    } finally {
      pending -= entries;
    }
  }

  const flush = () => (flushing = flushing.then(write));

  type Entry = Omit<FoldedEntry, 'key' | 'at' | 'count'>;
  const keyOf = (minuteNumber: number, entry: Entry) =>
    JSON.stringify([minuteNumber, entry.client, entry.actor, entry.action, entry.target, entry.outcome, entry.detail]);

  function fold(minuteNumber: number, entry: Entry) {
    pending += 1;
    const key = keyOf(minuteNumber, entry);
    const existing = folded.get(key);
    if (existing) {
      existing.count += 1;
      return;
    }
    folded.set(key, { ...entry, key, at: new Date(minuteNumber * MINUTE_MS), count: 1 });
    if (folded.size >= 500) void flush();
  }
  return {
    /** One entry, folded with the identical ones of its minute. */
    add(event: Omit<AuditEvent, 'at'>) {
      fold(Math.floor(now() / MINUTE_MS), {
        client: null,
        actor: event.actor,
        action: event.action,
        target: event.target ?? null,
        outcome: event.outcome,
        detail: event.detail ?? null,
      });
    },
    refuse(refusal: { client: string; actor: string | null; action: string; detail: string }) {
      const thisMinute = Math.floor(now() / MINUTE_MS);
      if (thisMinute !== minute) {
        minute = thisMinute;
        refusalKeysThisMinute.clear();
      }
      const entry = { ...refusal, target: null, outcome: 'refused' as const };
      const key = keyOf(thisMinute, entry);
      if (!refusalKeysThisMinute.has(key)) {
        // Over the cap, the rest of the minute's refusals are counted together under client "*".
        if (refusalKeysThisMinute.size >= maxRows) entry.client = '*';
        refusalKeysThisMinute.add(keyOf(thisMinute, entry));
      }
      fold(thisMinute, entry);
    },
    /** Writes everything queued; resolves when it is in the database. */
    flush,
    /** Entries accepted and not yet in the database: the backlog. */
    pending: () => pending,
    /** The last write; the background registry's flush loop writes the rest every AUDIT_FLUSH_MS. */
    close: flush,
  };
}

export type AuditWriter = ReturnType<typeof createAuditWriter>;
