import {
  emailParamsSchema,
  passkeyAssertionSchema,
  passkeyCreationOptionsSchema,
  passkeyRegistrationSchema,
  passkeyRequestOptionsSchema,
  passkeysResetSchema,
  stepUpDoneSchema,
  stepUpStatusSchema,
} from '@portal/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import { acceptEmptyJsonBodies } from '../http/empty-body.ts';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import type { AdminSession, RelyingParty } from './passkey-ceremonies.ts';

/** A WebAuthn response is a few kilobytes; anything far larger is not one. */
const CEREMONY_BODY_LIMIT = 128 * 1024;

/** The signed-in admin; the authorization hook has already refused anyone else. */
function adminSession(request: FastifyRequest): AdminSession {
  const caller = requireCaller(request);
  return { uid: caller.uid, email: caller.email, authTimeMs: caller.authTimeMs };
}

/**
 * Where passkeys belong (the RP ID) and the pages they may be used on: as configured, or else the host and
 * origin the request came to. Deriving them is safe: a passkey signs only for the host it was made on, and
 * the browser only lets pages of that host ask, so no other host can present a real admin's signature.
 */
export function relyingPartyFor(request: FastifyRequest, config: Pick<Config, 'webauthn' | 'theme'>): RelyingParty {
  const name = config.theme.productName;
  if (config.webauthn) return { id: config.webauthn.rpId, name, origins: config.webauthn.origins };
  return { id: request.hostname, name, origins: [`${request.protocol}://${request.host}`] };
}

/**
 * The signed-in admin's passkey: where they stand, setting one up, confirming with it; and the recovery
 * another admin runs for someone who lost theirs. Every ceremony answers with `no-store`: a challenge is
 * for one use.
 */
const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  acceptEmptyJsonBodies(app);
  const ceremonies = app.domain.passkeys;
  const rp = (request: FastifyRequest) => relyingPartyFor(request, app.domain.config);
  app.addHook('onSend', async (_request, reply) => void reply.header('cache-control', 'no-store'));

  app.get(
    '/me/step-up',
    {
      config: { access: 'admin-step-up' },
      schema: {
        summary: "The signed-in admin's passkeys and whether this sign-in has confirmed with one lately",
        tags: ['passkeys'],
        response: { 200: stepUpStatusSchema, ...errorResponses },
      },
    },
    (request) => ceremonies.status(adminSession(request)),
  );

  app.post(
    '/me/passkeys/options',
    {
      config: { access: 'admin-step-up' },
      schema: {
        summary: 'Start setting up a passkey (WebAuthn creation options)',
        description:
          'A first passkey needs a password sign-in within ADMIN_STEP_UP_MAX_AGE_SECONDS; another one needs a ' +
          'recent confirmation with an existing passkey. Otherwise 403 `step-up-required`.',
        tags: ['passkeys'],
        response: { 200: passkeyCreationOptionsSchema, ...errorResponses },
      },
    },
    (request) => ceremonies.registrationOptions(adminSession(request), rp(request)),
  );

  app.post(
    '/me/passkeys',
    {
      config: { access: 'admin-step-up' },
      bodyLimit: CEREMONY_BODY_LIMIT,
      schema: {
        summary: 'Finish setting up a passkey; this also confirms the sign-in',
        tags: ['passkeys'],
        body: passkeyRegistrationSchema,
        response: { 201: stepUpDoneSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await ceremonies.register(adminSession(request), rp(request), request.body)),
  );

  app.post(
    '/me/step-up/options',
    {
      config: { access: 'admin-step-up' },
      schema: {
        summary: 'Start confirming with a passkey (WebAuthn request options)',
        tags: ['passkeys'],
        response: { 200: passkeyRequestOptionsSchema, ...errorResponses },
      },
    },
    (request) => ceremonies.authenticationOptions(adminSession(request), rp(request)),
  );

  app.post(
    '/me/step-up',
    {
      config: { access: 'admin-step-up' },
      bodyLimit: CEREMONY_BODY_LIMIT,
      schema: {
        summary: 'Confirm this sign-in with a passkey: admin calls are accepted until `steppedUpUntil`',
        tags: ['passkeys'],
        body: passkeyAssertionSchema,
        response: { 200: stepUpDoneSchema, ...errorResponses },
      },
    },
    (request) => ceremonies.authenticate(adminSession(request), rp(request), request.body),
  );

  app.delete(
    '/users/:email/passkeys',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Reset another admin's passkeys (recovery): they set up a new one on their next visit",
        tags: ['passkeys'],
        params: emailParamsSchema,
        response: { 200: passkeysResetSchema, ...errorResponses },
      },
    },
    (request) => ceremonies.resetPasskeys({ email: request.params.email, actor: adminSession(request).email }),
  );
};

export default passkeyRoutes;
