import {
  allowedUserListSchema,
  registeredUserSchema,
  registerUserBodySchema,
  TOTAL_COUNT_HEADER,
  userListQuerySchema,
} from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { acceptEmptyJsonBodies } from '../http/empty-body.ts';
import { errorResponses } from '../http/error-responses.ts';
import { limitUnauthenticated } from '../rate-limits/http-guards.ts';
import { toAllowedUser } from './allowed-user.ts';

/** The collection /users: the admin's list, and the register call the screen makes after an add. */
const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  acceptEmptyJsonBodies(app);

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
      return items.map(toAllowedUser);
    },
  );

  app.post(
    '/users',
    {
      config: { access: 'public' },
      preHandler: limitUnauthenticated({ perAddress: false }),
      schema: {
        summary: 'Record that an allowed address has a sign-in account',
        tags: ['users'],
        body: registerUserBodySchema,
        response: { 200: registeredUserSchema, ...errorResponses },
      },
    },
    // The same answer whether the address is listed or not, so this call tells nobody who is.
    async (request) => {
      const email = request.body.userId;
      await app.domain.userAdmin.registerUser(email);
      return { email, registered: true as const };
    },
  );
};

export default usersRoutes;
