import { runtimeConfigSchema, type RuntimeConfig } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Served at /config.json so one SPA build serves every environment. */
const runtimeConfigRoute: FastifyPluginAsyncZod<{ runtimeConfig: RuntimeConfig }> = async (app, options) => {
  app.get(
    '/config.json',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Runtime configuration of the web app',
        tags: ['platform'],
        response: { 200: runtimeConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return options.runtimeConfig;
    },
  );
};

export default runtimeConfigRoute;
