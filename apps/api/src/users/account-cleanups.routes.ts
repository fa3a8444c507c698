import { accountCleanupListSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../http/error-responses.ts';

/** How many pending clean-ups are listed; the total counts them all. */
const LISTED = 100;

/** GET /account-cleanups: removed users' sign-in accounts the identity provider has not yet confirmed deleted. */
const accountCleanupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/account-cleanups',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'List sign-in accounts of removed users still to be deleted (retried until done)',
        tags: ['users'],
        response: { 200: accountCleanupListSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      const { items, total } = await app.domain.accountCleanups.pending(LISTED);
      reply.header('cache-control', 'no-store');
      return {
        total,
        items: items.map((item) => ({
          email: item.email,
          requestedBy: item.requestedBy,
          requestedAt: item.requestedAt.toISOString(),
          attempts: item.attempts,
          nextAttemptAt: item.nextAttemptAt.toISOString(),
          lastError: item.lastError,
        })),
      };
    },
  );
};

export default accountCleanupRoutes;
