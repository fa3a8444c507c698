import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/client.ts';
import { currentRelease } from '../release.ts';

/**
 * The process's Prometheus registry and every metric the portal keeps; the pool gauge is read from the
 * database at each scrape. Built once in the domain, so the code that counts does not need the HTTP layer.
 * The portal's own metrics are named `portal_…` in base units (seconds, bytes), so they cannot clash with
 * another exporter's in a shared Prometheus; Node's process metrics keep their standard names.
 */
export function createMetrics(sources: {
  poolUse: DatabaseHandle['poolUse'];
  /** Whether the allowlist cache trusts its change notices (users/allowlist-cache.ts). */
  allowlistLive: () => boolean;
}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const { version, revision } = currentRelease();
  // The usual info metric: always 1, its labels say which build answers (joined onto others in queries).
  new Gauge({
    name: 'portal_build_info',
    help: 'The release this instance runs: always 1, labelled with its version and git revision',
    labelNames: ['version', 'revision'] as const,
    registers,
  }).set({ version, revision }, 1);
  // Read at each scrape, from the pool itself. The states add up to the connections open plus the requests
  // waiting: a sum over `state` is meaningful, which a `total` beside `idle` was not.
  new Gauge({
    name: 'portal_db_pool_connections',
    help: 'Database pool: connections in use (active), open but idle (idle), and requests waiting for one (waiting)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const use = sources.poolUse();
      this.set({ state: 'active' }, use.total - use.idle);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'waiting' }, use.waiting);
    },
  });
  // The LISTEN channel for allowlist changes: 0 while it is down or unproven (PostgreSQL restarting, a silent
  // connection), when every signed-in request reads its row from the database: correct, but slower.
  new Gauge({
    name: 'portal_allowlist_notifications_live',
    help: 'Whether allowlist change notices are known to arrive (1) or the allowlist cache has stepped aside (0)',
    registers,
    collect() {
      this.set(sources.allowlistLive() ? 1 : 0);
    },
  });

  return {
    registry,
    requestDuration: new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern (never the raw URL) and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    invoiceDownloads: new Counter({
      name: 'portal_invoice_downloads_total',
      help: 'Invoices sent to a signed-in user',
      registers,
    }),
    invoiceDownloadBytes: new Counter({
      name: 'portal_invoice_download_bytes_total',
      help: 'Bytes of invoices sent to signed-in users',
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'portal_rate_limit_refusals_total',
      help: 'Requests refused with 429 Too Many Requests, by route pattern',
      labelNames: ['route'] as const,
      registers,
    }),
    tokenCacheLookups: new Counter({
      name: 'portal_token_cache_lookups_total',
      help: 'ID-token verifications answered from the cache (hit) or by the identity provider (miss)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    auditWriteSeconds: new Histogram({
      name: 'portal_audit_write_seconds',
      help: 'Time to write one audit-log entry (how far the audit log lags the action it records)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
