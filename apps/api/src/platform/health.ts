import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../http/error-responses.ts';
import { sendError } from '../plugins/errors.ts';

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
      try {
        await app.database.ping();
        return { status: 'ready' };
      } catch (error) {
        request.log.error({ err: error }, 'database not reachable');
        return sendError(request, reply, 503, 'The database is not reachable.');
      }
    },
  );
};

export default healthRoutes;
