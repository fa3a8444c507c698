import type { AuditAction, AuditEventGroup, RefusedRoute } from '@portal/contract';
import { and, count, desc, eq, inArray, like, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export interface AuditEvent {
  actor: string | null;
  action: AuditAction | RefusedRoute;
  target?: string | null;
  outcome: 'ok' | 'refused' | 'failed';
  detail?: string | null;
  at?: Date;
}

/**
 * A minute of identical entries (refusals from one client, downloads of one invoice by one person), written
 * as one row with its count; `key` folds them, in this process and across instances.
 */
export interface FoldedEntry {
  key: string;
  at: Date;
  client: string | null;
  actor: string | null;
  action: string;
  target: string | null;
  outcome: AuditEvent['outcome'];
  detail: string | null;
  count: number;
}

export interface AuditFilter {
  /** Entries about this parcel code (downloads, uploads). */
  parcelCode?: string | undefined;
  /** Entries made by, or about, this e-mail address. */
  user?: string | undefined;
  /** One group of events (the contract's `AUDIT_EVENT_GROUPS`); all of them when left out. */
  events?: AuditEventGroup | undefined;
}

/** The condition each group of events is; `all` has none. */
const EVENT_GROUPS: Record<AuditEventGroup, () => SQL | undefined> = {
  all: () => undefined,
  'no-confirmations': () => ne(auditLog.action, 'passkeys.step-up'),
  users: () => or(like(auditLog.action, 'users.%'), like(auditLog.action, 'sessions.%')),
  invoices: () => like(auditLog.action, 'invoice.%'),
  passkeys: () => like(auditLog.action, 'passkeys.%'),
  refused: () => eq(auditLog.outcome, 'refused'),
};

const DELETE_BATCH = 5_000;

function whereOf(filter: AuditFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.parcelCode) conditions.push(eq(auditLog.target, filter.parcelCode));
  if (filter.user) {
    const either = or(eq(auditLog.actor, filter.user), eq(auditLog.target, filter.user));
    if (either) conditions.push(either);
  }
  const group = EVENT_GROUPS[filter.events ?? 'all']();
  if (group) conditions.push(group);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

export function createAuditRepository(db: Database, options: { onWritten?: (seconds: number) => void } = {}) {
  const toRow = (event: AuditEvent) => ({
    actor: event.actor,
    action: event.action,
    outcome: event.outcome,
    target: event.target ?? null,
    detail: event.detail ?? null,
    ...(event.at ? { at: event.at } : {}),
  });
  /** Every write reports its duration: the audit write lag the metrics show. */
  async function timed(write: () => Promise<unknown>) {
    const startedAt = performance.now();
    await write();
    options.onWritten?.((performance.now() - startedAt) / 1000);
  }

  return {
    async record(event: AuditEvent) {
      await timed(() => db.insert(auditLog).values(toRow(event)));
    },
    /** Many events in one statement (a bulk change's lines, one per address). */
    async recordMany(events: readonly AuditEvent[]) {
      if (events.length === 0) return;
      await timed(() => db.insert(auditLog).values(events.map(toRow)));
    },
    /** Adds each entry's count to its minute's row, creating the row the first time; one statement. */
    async recordFolded(entries: FoldedEntry[]) {
      if (entries.length === 0) return;
      await timed(() =>
        db
          .insert(auditLog)
          .values(entries.map(({ key, ...entry }) => ({ ...entry, aggregateKey: key })))
          .onConflictDoUpdate({
            target: auditLog.aggregateKey,
            set: { count: sql`${auditLog.count} + excluded.count` },
          }),
      );
    },
    async list(options: { limit: number; offset: number } & AuditFilter) {
      const rows = await db
        .select()
        .from(auditLog)
        .where(whereOf(options))
        .orderBy(desc(auditLog.id))
        .limit(options.limit)
        .offset(options.offset);
      return rows.map(({ aggregateKey: _key, ...row }) => ({ ...row, at: row.at.toISOString() }));
    },
    async count(filter: AuditFilter = {}): Promise<number> {
      const [row] = await db.select({ total: count() }).from(auditLog).where(whereOf(filter));
      return row?.total ?? 0;
    },
    /** Deletes entries older than `before` a batch at a time, so no single statement holds the table long. */
    async deleteOlderThan(before: Date): Promise<number> {
      let total = 0;
      for (;;) {
        const batch = db.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.at, before)).limit(DELETE_BATCH);
        const removed = await db.delete(auditLog).where(inArray(auditLog.id, batch)).returning({ id: auditLog.id });
        total += removed.length;
        if (removed.length < DELETE_BATCH) return total;
      }
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
