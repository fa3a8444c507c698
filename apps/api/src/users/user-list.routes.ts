import {
  allowedUserListSchema,
  registeredUserSchema,
  registerUserBodySchema,
  TOTAL_COUNT_HEADER,
  userListQuerySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../http/error-responses.ts';
import { limitUnauthenticated } from '../rate-limits/http-guards.ts';
import { toAllowedUser } from './allowed-user.ts';

/** The collection /users: the admin's list, and the register call the screen makes after an add. */
const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'List allowed users (search, page)',
        tags: ['users'],
        querystring: userListQuerySchema,
        response: { 200: allowedUserListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { items, total } = await app.domain.users.list(request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total)).header('cache-control', 'no-store');
      // Each administrator's and finance user's passkeys on their row, so a passkey nobody expected (or none)
      // is seen.
      const needsPasskey = (row: { admin: boolean; finance: boolean }) => row.admin || row.finance;
      const holders = items.filter(needsPasskey).map((row) => row.email);
      const passkeys = await app.domain.passkeys.passkeysOf(holders);
      return items.map((row) => ({
        ...toAllowedUser(row),
        ...(needsPasskey(row) ? { passkeys: passkeys.get(row.email) ?? [] } : {}),
      }));
    },
  );

  app.post(
    '/users',
    {
      config: { access: 'public' },
      preHandler: limitUnauthenticated({ perAddress: false }),
      schema: {
        summary: 'Confirm an add (the screen sends it after each add; it changes nothing)',
        tags: ['users'],
        body: registerUserBodySchema,
        response: { 200: registeredUserSchema, ...errorResponses },
      },
    },
    // Accepted as the spec has it, and changes nothing: an add is complete on the server already. The same
    // answer whether the address is listed or not, so this call tells nobody who is, and costs no write.
    async (request) => ({ email: request.body.userId, registered: true as const }),
  );
};

export default usersRoutes;
