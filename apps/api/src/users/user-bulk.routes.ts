import {
  bulkAddBodySchema,
  bulkAddResponseSchema,
  bulkDeleteResponseSchema,
  bulkUsersBodySchema,
} from '@portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';

const callerOf = (request: FastifyRequest) => requireCaller(request).email;

/** Aborted when the caller goes away before the answer is sent: the addresses not yet begun are left alone. */
function whileCallerWaits(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => controller.abort());
  return controller.signal;
}

/**
 * Many addresses in one admin call: the admin screen sends a long list 50 at a time, a script may send up to
 * 1,000. Each address is added or removed as the single call does it and audited on its own; the answer
 * has one result per address, in order. Authenticated, so it spends none of the anonymous allowance the
 * spec's register call shares with every visitor from the same address.
 */
const userBulkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/users/bulk-add',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Allow many addresses in, with a result per address',
        tags: ['users'],
        body: bulkAddBodySchema,
        response: { 200: bulkAddResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => ({
      results: await app.domain.bulkUserAdmin.addUsers({
        inputs: request.body.emails,
        actor: callerOf(request),
        signal: whileCallerWaits(reply),
        finance: request.body.finance ?? false,
      }),
    }),
  );

  app.post(
    '/users/bulk-delete',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Remove many addresses and their sign-in accounts, with a result per address',
        tags: ['users'],
        body: bulkUsersBodySchema,
        response: { 200: bulkDeleteResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => ({
      results: await app.domain.bulkUserAdmin.removeUsers({
        inputs: request.body.emails,
        actor: callerOf(request),
        signal: whileCallerWaits(reply),
      }),
    }),
  );
};

export default userBulkRoutes;
