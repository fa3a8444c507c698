import { emailParamsSchema, userLookupSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../plugins/errors.ts';
import { errorResponses } from './error-responses.ts';
import { limitUnauthenticated } from './rate-limits.ts';

export interface UserRoutesOptions {
  lookupsPerMinute: number;
}

const userRoutes: FastifyPluginAsyncZod<UserRoutesOptions> = async (app, options) => {
  // Unauthenticated lookups are limited per client and per address, so the list cannot be enumerated.
  const limits = limitUnauthenticated({ perMinute: options.lookupsPerMinute, keys: ['ip', 'email'] });

  app.get(
    '/users/:email',
    {
      config: { access: 'public' },
      preHandler: limits,
      schema: { params: emailParamsSchema, response: { 200: userLookupSchema, ...errorResponses } },
    },
    async (request) => {
      const { email } = request.params;
      const row = await app.usersRepository.findByEmail(email);
      if (!row) throw new HttpError(404, 'No account is registered for this e-mail address.');
      const caller = request.caller;
      const mayKnowRole = caller !== null && (caller.admin || caller.email === row.email);
      return mayKnowRole
        ? { email: row.email, activated: row.activated, admin: row.admin }
        : { email: row.email, activated: row.activated };
    },
  );
};

export default userRoutes;
