import {
  activatedUserSchema,
  approvalRequestedSchema,
  addUserQuerySchema,
  activateUserBodySchema,
  allowedUserSchema,
  changeUserBodySchema,
  changedUserSchema,
  emailParamsSchema,
  removedUserSchema,
  userLookupSchema,
} from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isEmptyBody } from '../http/empty-body.ts';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import { limitUnauthenticated } from '../rate-limits/http-guards.ts';
import { DomainError } from '../domain-error.ts';
import { toAllowedUser } from './allowed-user.ts';
import { NO_ACCOUNT_MESSAGE } from './user-admin.ts';

const adminEmail = (request: FastifyRequest) => requireCaller(request).email;

/**
 * A promotion: made at once with its enrollment code where nobody else could approve it, otherwise a request
 * for a second administrator (the row unchanged, no code for whoever asked).
 */
async function promote(app: FastifyInstance, email: string, actor: string) {
  const outcome = await app.domain.adminApprovals.promote({ email, actor });
  if ('pending' in outcome) return { row: outcome.row, approval: outcome.pending, enrollment: undefined };
  return { row: outcome.done, approval: undefined, enrollment: outcome.enrollment };
}

/** One allowed address, /users/:email: look it up, add it, remove it, change its role, activate it. */
const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/:email',
    {
      config: { access: 'public' },
      // Unauthenticated lookups share the per-client allowance, so the list cannot be enumerated.
      preHandler: limitUnauthenticated({ perAddress: true }),
      schema: {
        summary: 'Look up whether an address is allowed and activated',
        tags: ['users'],
        params: emailParamsSchema,
        response: { 200: userLookupSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { email } = request.params;
      const row = await app.domain.users.findByEmail(email);
      // A person the directory deactivated is answered like one who is not listed: the login screen says so.
      if (!row || row.suspended) throw new DomainError('not-found', NO_ACCOUNT_MESSAGE);
      const caller = request.caller;
      const mayKnowRole = caller !== null && (caller.admin || caller.email === row.email);
      return mayKnowRole
        ? { email: row.email, activated: row.activated, admin: row.admin, finance: row.finance }
        : { email: row.email, activated: row.activated };
    },
  );

  app.post(
    '/users/:email',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Allow an address in',
        description:
          'Creates the sign-in account (no password) and the row. An account the portal did not make is refused ' +
          '(409, code foreign-account) and left alone, unless `takeOver=true` confirms that it may be deleted.',
        tags: ['users'],
        params: emailParamsSchema,
        querystring: addUserQuerySchema,
        response: { 201: allowedUserSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      // The spec's screen sends a JSON content type with nothing in it; anything more is a mistake to report.
      if (!isEmptyBody(request.body)) {
        throw new DomainError(
          'invalid',
          'Adding a user takes no body: the e-mail address in the path is all it needs.',
        );
      }
      const row = await app.domain.userAdmin.addUser({
        email: request.params.email,
        actor: adminEmail(request),
        takeOver: request.query.takeOver ?? false,
      });
      return reply.code(201).send(toAllowedUser(row));
    },
  );

  app.delete(
    '/users/:email',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Remove an address and its sign-in account',
        description:
          'The removal holds once answered; `accountCleanup` says whether the sign-in account is deleted too or ' +
          'still pending at the identity provider (retried until done, see GET /account-cleanups).',
        tags: ['users'],
        params: emailParamsSchema,
        response: { 200: removedUserSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { row, accountCleanup } = await app.domain.userAdmin.removeUser({
        email: request.params.email,
        actor: adminEmail(request),
      });
      return { email: row.email, accountCleanup };
    },
  );

  app.patch(
    '/users/:email',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Give or take a role: administrator, finance',
        description:
          'Making someone an administrator answers 202 with `approval` when another administrator with a passkey ' +
          'could approve it (anyone but the caller and the person): it waits for them (GET /approvals), and no ' +
          'enrollment code is issued to the caller. Otherwise it is made at once, and `enrollment` is the code ' +
          "the new administrator's first passkey needs.",
        tags: ['users'],
        params: emailParamsSchema,
        body: changeUserBodySchema,
        response: { 200: changedUserSchema, 202: approvalRequestedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email } = request.params;
      const actor = adminEmail(request);
      const { admin, finance } = request.body;
      const promotion = admin === true ? await promote(app, email, actor) : undefined;
      let row = admin === false ? await app.domain.userAdmin.setAdmin({ email, admin, actor }) : promotion?.row;
      // The finance role, like the admin role, needs a passkey: its grant may answer an enrollment code.
      const financeChange =
        finance === undefined ? undefined : await app.domain.financeRole.setFinance({ email, finance, actor });
      row = financeChange?.row ?? row;
      if (!row) throw new Error('the body schema lets no call through without a role');
      if (promotion?.approval) return reply.code(202).send({ ...toAllowedUser(row), approval: promotion.approval });
      const enrollment = promotion?.enrollment ?? financeChange?.enrollment;
      return { ...toAllowedUser(row), ...(enrollment ? { enrollment } : {}) };
    },
  );

  app.put(
    '/users/:email',
    {
      config: { access: 'public' },
      preHandler: limitUnauthenticated({ perAddress: true }),
      schema: {
        summary: 'Mark an allowed address as activated (after its first password)',
        tags: ['users'],
        params: emailParamsSchema,
        body: activateUserBodySchema,
        response: { 200: activatedUserSchema, ...errorResponses },
      },
    },
    // Accepted as the spec has it, and harmless: the server sets `activated` itself on the first signed-in
    // request; the answer is the same whether the address is listed or not.
    async (request) => ({ email: request.params.email, activated: true }),
  );
};

export default userRoutes;
