import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sameSecret } from '../lib/same-secret.ts';
import { sendError } from '../plugins/errors.ts';

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern (never the raw URL) and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    invoiceDownloads: new Counter({
      name: 'invoice_downloads_total',
      help: 'Invoices sent to a signed-in user',
      registers,
    }),
    invoiceDownloadBytes: new Counter({
      name: 'invoice_download_bytes_total',
      help: 'Bytes of invoices sent to signed-in users',
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused with 429 Too Many Requests, by route pattern',
      labelNames: ['route'] as const,
      registers,
    }),
    tokenCacheLookups: new Counter({
      name: 'token_cache_lookups_total',
      help: 'ID-token verifications answered from the cache (hit) or by the identity provider (miss)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    auditWriteSeconds: new Histogram({
      name: 'audit_write_seconds',
      help: 'Time to write one audit-log entry (how far the audit log lags the action it records)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/**
 * Prometheus metrics at GET /metrics, for the scraper only: it must send `Authorization: Bearer
 * <METRICS_TOKEN>`; without a configured token the endpoint answers 404. Each app has its own registry.
 */
export default fp<{ token: string | undefined }>(
  async (app, options) => {
    const metrics = createMetrics();
    app.decorate('metrics', metrics);

    // Read at each scrape, from the pool itself.
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections: total open, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [metrics.registry],
      collect() {
        const use = app.database.poolUse();
        this.set({ state: 'total' }, use.total);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });

    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      metrics.requestDuration.observe(
        { method: request.method, route, status_code: String(status) },
        reply.elapsedTime / 1000,
      );
      if (status === 429) metrics.rateLimitRefusals.inc({ route });
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!options.token) return sendError(request, reply, 404, 'Metrics are off: set METRICS_TOKEN to enable them.');
      if (!token || !sameSecret(token, options.token)) {
        return sendError(request, reply, 401, 'Metrics need "Authorization: Bearer <METRICS_TOKEN>".');
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  },
  { name: 'metrics' },
);
