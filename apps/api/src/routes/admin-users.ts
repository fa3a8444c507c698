import {
  activatedUserSchema,
  activateUserBodySchema,
  allowedUserListSchema,
  allowedUserSchema,
  emailParamsSchema,
  registeredUserSchema,
  registerUserBodySchema,
  removedUserSchema,
  TOTAL_COUNT_HEADER,
  userListQuerySchema,
  type AllowedUser,
} from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../plugins/errors.ts';
import type { UserRow } from '../repositories/users-repository.ts';
import { createUserAdmin } from '../users/user-admin.ts';
import { acceptEmptyJsonBodies, isEmptyBody } from './empty-body.ts';
import { errorResponses } from './error-responses.ts';
import { limitUnauthenticated } from './rate-limits.ts';

export interface AdminUserRoutesOptions {
  /** Allowance per minute for each of the unauthenticated calls here (register, activate), per key. */
  unauthenticatedPerMinute: number;
}

export const toAllowedUser = (row: UserRow): AllowedUser => ({
  email: row.email,
  admin: row.admin,
  activated: row.activated,
  registered: row.registered,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
});

/** The e-mail of the admin making the call; the authorization hook has already refused anyone else. */
function adminEmail(request: FastifyRequest) {
  if (!request.caller) throw new Error(`${request.method} ${request.url} reached its handler without a caller`);
  return request.caller.email;
}

/** GET /users, POST /users/:email, POST /users, DELETE /users/:email, PUT /users/:email (issues 4 and 5). */
const adminUserRoutes: FastifyPluginAsyncZod<AdminUserRoutesOptions> = async (app, options) => {
  acceptEmptyJsonBodies(app);
  const userAdmin = createUserAdmin({
    db: app.database.db,
    users: app.usersRepository,
    audit: app.auditRepository,
    identity: app.identity,
    forgetSessions: (uid) => app.tokenCache.evictUid(uid),
    log: app.log,
  });
  const perMinute = options.unauthenticatedPerMinute;

  app.get(
    '/users',
    {
      config: { access: 'admin' },
      schema: { querystring: userListQuerySchema, response: { 200: allowedUserListSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { items, total } = await app.usersRepository.list(request.query);
      reply.header(TOTAL_COUNT_HEADER, String(total)).header('cache-control', 'no-store');
      return items.map(toAllowedUser);
    },
  );

  app.post(
    '/users/:email',
    {
      config: { access: 'admin' },
      schema: { params: emailParamsSchema, response: { 201: allowedUserSchema, ...errorResponses } },
    },
    async (request, reply) => {
      // The spec's screen sends a JSON content type with nothing in it; anything more is a mistake to report.
      if (!isEmptyBody(request.body)) {
        throw new HttpError(400, 'Adding a user takes no body: the e-mail address in the path is all it needs.');
      }
      const row = await userAdmin.addUser({ email: request.params.email, actor: adminEmail(request) });
      return reply.code(201).send(toAllowedUser(row));
    },
  );

  app.post(
    '/users',
    {
      config: { access: 'public' },
      preHandler: limitUnauthenticated({ perMinute, keys: ['ip'] }),
      schema: { body: registerUserBodySchema, response: { 200: registeredUserSchema, ...errorResponses } },
    },
    async (request) => {
      const row = await userAdmin.registerUser(request.body.userId);
      return { email: row.email, registered: true as const };
    },
  );

  app.delete(
    '/users/:email',
    {
      config: { access: 'admin' },
      schema: { params: emailParamsSchema, response: { 200: removedUserSchema, ...errorResponses } },
    },
    async (request) => {
      const row = await userAdmin.removeUser({ email: request.params.email, actor: adminEmail(request) });
      return { email: row.email };
    },
  );

  app.put(
    '/users/:email',
    {
      config: { access: 'public' },
      preHandler: limitUnauthenticated({ perMinute, keys: ['ip', 'email'] }),
      schema: {
        params: emailParamsSchema,
        body: activateUserBodySchema,
        response: { 200: activatedUserSchema, ...errorResponses },
      },
    },
    async (request) => {
      const row = await userAdmin.activateUser(request.params.email);
      return { email: row.email, activated: row.activated };
    },
  );
};

export default adminUserRoutes;
