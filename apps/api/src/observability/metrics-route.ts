import fp from 'fastify-plugin';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Domain } from '../domain.ts';
import { bearerTokenOf } from '../http/bearer-token.ts';
import { sendError } from '../http/send-error.ts';
import { sameSecret } from '../lib/same-secret.ts';
import type { Metrics } from './metrics.ts';

/** GET /metrics for the scraper only: `Authorization: Bearer <METRICS_TOKEN>`; 404 without a configured token. */
function scrape(metrics: Metrics, token: string | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const given = bearerTokenOf(request.headers.authorization);
    if (!token) return sendError(request, reply, 404, 'Metrics are off: set METRICS_TOKEN to enable them.');
    if (!given || !sameSecret(given, token)) {
      return sendError(request, reply, 401, 'Metrics need "Authorization: Bearer <METRICS_TOKEN>".');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
}

/**
 * Counts every request by route pattern and status, and serves Prometheus metrics at GET /metrics, on the
 * API's port unless a management port of its own is configured (METRICS_PORT: `startManagementServer`),
 * where a NetworkPolicy can let the scraper in without letting it reach the API. Each app has its own registry.
 */
export default fp<{ token: string | undefined; onManagementPort: boolean }>(
  async (app, options) => {
    const { metrics } = app.domain;

    // A callback hook, not an async one: it runs on every answer, and a promise per answer is garbage.
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      metrics.requestDuration.observe(
        { method: request.method, route, status_code: String(status) },
        reply.elapsedTime / 1000,
      );
      if (status === 429) metrics.rateLimitRefusals.inc({ route });
      done();
    });

    if (!options.onManagementPort) {
      app.get('/metrics', { schema: { hide: true } }, scrape(metrics, options.token));
    }
  },
  { name: 'metrics', dependencies: ['domain'] },
);

/**
 * The management port (METRICS_PORT): /metrics alone, with the same token. The probes stay on the API's port,
 * where they prove the API itself answers. Its requests are not counted among the API's.
 */
export async function startManagementServer(
  domain: Pick<Domain, 'metrics' | 'config'>,
  options: { host: string; port: number; logger: FastifyBaseLogger },
): Promise<{ close(): Promise<void>; port: number }> {
  const server = Fastify({
    loggerInstance: options.logger.child({ server: 'management' }),
    disableRequestLogging: true,
  });
  server.get('/metrics', scrape(domain.metrics, domain.config.metricsToken));
  server.setNotFoundHandler((request, reply) =>
    sendError(request, reply, 404, 'The management port serves GET /metrics only.'),
  );
  await server.listen({ host: options.host, port: options.port });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => server.close(),
  };
}
