import fp from 'fastify-plugin';
import { bearerTokenOf } from '../http/bearer-token.ts';
import { sendError } from '../http/send-error.ts';
import { sameSecret } from '../lib/same-secret.ts';

/**
 * Prometheus metrics at GET /metrics, for the scraper only: it must send `Authorization: Bearer
 * <METRICS_TOKEN>`; without a configured token the endpoint answers 404. Each app has its own registry.
 */
export default fp<{ token: string | undefined }>(
  async (app, options) => {
    const { metrics } = app.domain;

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
      const token = bearerTokenOf(request.headers.authorization);
      if (!options.token) return sendError(request, reply, 404, 'Metrics are off: set METRICS_TOKEN to enable them.');
      if (!token || !sameSecret(token, options.token)) {
        return sendError(request, reply, 401, 'Metrics need "Authorization: Bearer <METRICS_TOKEN>".');
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  },
  { name: 'metrics', dependencies: ['domain'] },
);
