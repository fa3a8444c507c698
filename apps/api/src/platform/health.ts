import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const statusSchema = z.object({ status: z.string() });

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { config: { access: 'public' }, schema: { response: { 200: statusSchema } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: { response: { 200: statusSchema, 503: z.object({ message: z.string() }) } },
    },
    async (request, reply) => {
      try {
        await app.database.ping();
        return { status: 'ready' };
      } catch (error) {
        request.log.error({ err: error }, 'database not reachable');
        return reply.code(503).send({ message: 'The database is not reachable.' });
      }
    },
  );
};

export default healthRoutes;
