import { ssoLinkedSchema, ssoLinkRequestSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DomainError } from '../domain-error.ts';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import { InvalidTokenError } from '../identity/identity-provider.ts';

/** Linking a company sign-in to an account that has a password, proved by that password (decision 0087). */
const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/sso/link',
    {
      config: { access: 'user' },
      schema: {
        summary:
          'Link the company sign-in of this account to the signed-in person, who typed their password in the last ten minutes; the password stays',
        tags: ['sessions'],
        body: ssoLinkRequestSchema,
        response: { 200: ssoLinkedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = requireCaller(request);
      const companySignIn = app.domain.companySignIn;
      if (!companySignIn) throw new DomainError('not-found', 'Single sign-on is not configured on this portal.');
      let company;
      try {
        company = await app.domain.identity.verifyIdToken(request.body.companyIdToken);
      } catch (error) {
        if (!(error instanceof InvalidTokenError)) throw error;
        throw new DomainError(
          'invalid',
          'The company sign-in has ended. Please sign in with it again.',
          'sso link: company token not valid',
        );
      }
      await companySignIn.linkWithPassword({ passwordSignIn: caller, company, nowMs: Date.now() });
      return { email: caller.email, linked: true as const };
    },
  );
};

export default ssoRoutes;
