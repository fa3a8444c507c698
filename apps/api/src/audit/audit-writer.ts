import fp from 'fastify-plugin';
import type { AggregatedRefusal, AuditEvent, AuditRepository } from './repository.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface AuditWriterOptions {
  repository: AuditRepository;
  log: { error(details: object, message: string): void };
  /** How often queued entries are written. */
  flushMs?: number;
  /** Distinct (client, reason, minute) rows a minute may add; refusals beyond it count under client "*". */
  maxRefusalRowsPerMinute?: number;
  now?: () => number;
}

/**
 * Audit entries from the hot paths (downloads, refusals), queued in memory and written in batches so a
 * request never waits for the audit log. Refusals are folded per client, reason and minute, and the number
 * of rows a minute may add is capped, so a flood of anonymous requests adds a bounded number of rows.
 */
export function createAuditWriter(options: AuditWriterOptions) {
  const now = options.now ?? Date.now;
  const maxRows = options.maxRefusalRowsPerMinute ?? 1_000;
  let events: AuditEvent[] = [];
  let refusals = new Map<string, AggregatedRefusal>();
  let minute = -1;
  const keysThisMinute = new Set<string>();
  let flushing: Promise<void> = Promise.resolve();

  async function write() {
    const batch = events;
    const folded = [...refusals.values()];
    events = [];
    refusals = new Map();
    try {
      await options.repository.recordMany(batch);
      await options.repository.recordRefusals(folded);
    } catch (error) {
      options.log.error({ err: error, entries: batch.length + folded.length }, 'could not write the audit log');
    }
  }

  const flush = () => (flushing = flushing.then(write));
  const timer = setInterval(() => void flush(), options.flushMs ?? 1_000);
  timer.unref();

  return {
    add(event: AuditEvent) {
      events.push({ ...event, at: event.at ?? new Date(now()) });
      if (events.length >= 500) void flush();
    },
    refuse(refusal: { client: string; actor: string | null; action: string; detail: string }) {
      const at = now();
      const thisMinute = Math.floor(at / MINUTE_MS);
      if (thisMinute !== minute) {
        minute = thisMinute;
        keysThisMinute.clear();
      }
      const keyOf = (client: string) =>
        JSON.stringify([thisMinute, client, refusal.actor, refusal.action, refusal.detail]);
      let key = keyOf(refusal.client);
      let client = refusal.client;
      if (!keysThisMinute.has(key)) {
        if (keysThisMinute.size >= maxRows) {
          client = '*';
          key = keyOf(client);
        }
        keysThisMinute.add(key);
      }
      const existing = refusals.get(key);
      if (existing) existing.count += 1;
      else refusals.set(key, { ...refusal, client, key, at: new Date(thisMinute * MINUTE_MS), count: 1 });
    },
    /** Writes everything queued; resolves when it is in the database. */
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

export type AuditWriter = ReturnType<typeof createAuditWriter>;

declare module 'fastify' {
  interface FastifyInstance {
    auditWriter: AuditWriter;
  }
}

/** The batched writer, flushed on close; and the retention sweep, at start and then hourly. */
export const auditWriterPlugin = fp<{ retentionDays: number }>(
  async (app, options) => {
    const writer = createAuditWriter({ repository: app.auditRepository, log: app.log });
    app.decorate('auditWriter', writer);
    const expire = () =>
      app.auditRepository
        .deleteOlderThan(new Date(Date.now() - options.retentionDays * DAY_MS))
        .catch((error: unknown) => app.log.error({ err: error }, 'could not expire old audit entries'));
    const sweeper = setInterval(() => void expire(), 60 * MINUTE_MS);
    sweeper.unref();
    app.addHook('onReady', async () => void expire());
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      await writer.close();
    });
  },
  { name: 'audit-writer', dependencies: ['audit-repository'] },
);
