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
    // While draining, each answer asks its client to reconnect, which then reaches another instance. Set as
    // a request comes in, not as its answer goes out: an onSend hook, the only one on most routes, made every
    // answer run Fastify's onSend machinery, and a request still being answered when draining begins is one
    // answer on a connection that the next request, or the close, moves anyway.
    app.addHook('onRequest', (_request, reply, done) => {
      if (app.readiness.draining) reply.header('connection', 'close');
      done();
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

  // Ready means this instance can serve: it is up and not draining. Not "the database answers": while
  // PostgreSQL is away every instance would go unready together, the load balancer would have no one left to
  // send to, and people would get its bare 502 instead of this portal's own 503 "cannot reach the database"
  // and its pages. The instances reconnect by themselves (docs/decisions/0070).
  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Readiness: this instance serves (not draining)',
        tags: ['platform'],
        response: { 200: statusSchema, 503: errorResponses[503] },
      },
    },
    async (request, reply) => {
      if (app.readiness.draining) return sendError(request, reply, 503, 'The server is shutting down.');
      return { status: 'ready' };
    },
  );
};

export default healthRoutes;
