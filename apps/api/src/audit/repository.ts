import { count, desc } from 'drizzle-orm';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.ts';
// Its plugin declares app.database, which this repository's plugin reads.
import type {} from '../plugins/services.ts';
import type {} from '../observability/metrics.ts';
import { auditLog } from '../db/schema.ts';

export interface AuditEvent {
  actor: string | null;
  action: string;
  target?: string | null;
  outcome: 'ok' | 'refused' | 'failed';
  detail?: string | null;
}

export function createAuditRepository(db: Database, options: { onWritten?: (seconds: number) => void } = {}) {
  return {
    async record(event: AuditEvent) {
      const startedAt = performance.now();
      await db.insert(auditLog).values({ ...event, target: event.target ?? null, detail: event.detail ?? null });
      options.onWritten?.((performance.now() - startedAt) / 1000);
    },
    async list(options: { limit: number; offset: number }) {
      const rows = await db
        .select()
        .from(auditLog)
        .orderBy(desc(auditLog.id))
        .limit(options.limit)
        .offset(options.offset);
      return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
    },
    async count(): Promise<number> {
      const [row] = await db.select({ total: count() }).from(auditLog);
      return row?.total ?? 0;
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;

declare module 'fastify' {
  interface FastifyInstance {
    auditRepository: AuditRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate(
      'auditRepository',
      createAuditRepository(app.database.db, {
        onWritten: (seconds) => app.metrics.auditWriteSeconds.observe(seconds),
      }),
    );
  },
  { name: 'audit-repository', dependencies: ['services', 'metrics'] },
);
