import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../http/error-responses.ts';
import { sendError } from '../http/send-error.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the server on SIGTERM: readiness fails at once so a load balancer stops sending new work. */
    readiness: { draining: boolean };
  }
}

/** The process's readiness state, at the root so the server can flip it and every route sees it. */
export const readinessPlugin = fp(
  async (app) => {
    app.decorate('readiness', { draining: false });
    // While draining, each answer asks its client to reconnect, which then reaches another instance.
    app.addHook('onSend', async (_request, reply) => {
      if (app.readiness.draining) reply.header('connection', 'close');
    });
  },
  { name: 'readiness' },
);

const statusSchema = z.object({ status: z.string() });

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: { summary: 'Liveness: the process answers', tags: ['platform'], response: { 200: statusSchema } },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Readiness: the database answers',
        tags: ['platform'],
        response: { 200: statusSchema, 503: errorResponses[503] },
      },
    },
    async (request, reply) => {
      if (app.readiness.draining) return sendError(request, reply, 503, 'The server is shutting down.');
      try {
        await app.domain.database.ping();
        return { status: 'ready' };
      } catch (error) {
        request.log.error({ err: error }, 'database not reachable');
        return sendError(request, reply, 503, 'The database is not reachable.');
      }
    },
  );
};

export default healthRoutes;
