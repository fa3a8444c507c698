import { emailParamsSchema, sessionsEndedSchema } from '@portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import { clearStepUpCookie } from '../passkeys/step-up-secret.ts';

/** Ending sessions: one's own ("Sign out everywhere"), or someone else's (an admin's "End sessions"). */
const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.delete(
    '/me/sessions',
    {
      config: { access: 'user' },
      schema: {
        summary: 'Sign out everywhere: end every session of the signed-in person, this one included',
        tags: ['sessions'],
        response: { 200: sessionsEndedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const ended = await app.domain.sessions.endOwnSessions(requireCaller(request));
      // Every session of this person is over: this browser's passkey confirmation goes with them.
      clearStepUpCookie({ request, reply, pageOrigins: app.domain.config.webauthn?.origins });
      return ended;
    },
  );

  app.delete(
    '/users/:email/sessions',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'End every session of an allowed user: they must sign in again on every device',
        tags: ['sessions'],
        params: emailParamsSchema,
        response: { 200: sessionsEndedSchema, ...errorResponses },
      },
    },
    (request) =>
      app.domain.sessions.endSessionsOf({ email: request.params.email, actor: requireCaller(request).email }),
  );
};

export default sessionRoutes;
