import {
  approvalRequestedSchema,
  emailParamsSchema,
  enrollmentCodeShownSchema,
  passkeyAssertionSchema,
  passkeyCreationOptionsSchema,
  passkeyOptionsBodySchema,
  passkeyRegistrationSchema,
  passkeyRequestOptionsSchema,
  passkeysResetSchema,
  stepUpDoneSchema,
  stepUpStatusSchema,
} from '@portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { errorResponses } from '../http/error-responses.ts';
import { requireCaller } from '../http/require-caller.ts';
import { clientKey } from '../rate-limits/client-key.ts';
import { rateLimited } from '../rate-limits/rate-limited.ts';
import type { AdminSession, Confirmation, RelyingParty } from './passkey-ceremonies.ts';
import { clearStepUpCookie, sendStepUpCookie, stepUpSecretOf } from './step-up-secret.ts';

/** A WebAuthn response is a few kilobytes; anything far larger is not one. */
const CEREMONY_BODY_LIMIT = 128 * 1024;

/** The signed-in admin or finance user; the authorization hook has already refused anyone else. */
function adminSession(request: FastifyRequest): AdminSession {
  const caller = requireCaller(request);
  return { uid: caller.uid, email: caller.email, authTimeMs: caller.authTimeMs, stepUpSecret: stepUpSecretOf(request) };
}

/**
 * Each administrator's ceremony calls share one allowance a minute (options and answers alike), decided in
 * memory: a script with a stolen password and session cannot hammer the challenge table or the audit log.
 * The refusal goes to the audit log folded per client and minute, like the authorization hook's.
 */
async function limitCeremonies(request: FastifyRequest) {
  const caller = request.caller;
  if (!caller) return;
  const { rateLimits, auditTrail } = request.server.domain;
  const waitMs = rateLimits.passkeyCeremonies.hitNow(caller.uid);
  if (waitMs === undefined) return;
  const refusal = rateLimited(waitMs);
  auditTrail.refusal({
    client: clientKey(request.ip),
    actor: caller.email,
    action: `${request.method} ${request.routeOptions.url}`,
    // Not the answer's message: the wait it names changes every second, and would split the minute's row.
    detail: `${refusal.statusCode} too many requests; passkey ceremonies`,
  });
  throw refusal;
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
  const ceremonies = app.domain.passkeys;
  const rp = (request: FastifyRequest) => relyingPartyFor(request, app.domain.config);
  app.addHook('onSend', async (_request, reply) => void reply.header('cache-control', 'no-store'));
  /**
   * The finished ceremony's secret goes to this browser only, as a cookie; the body says until when. The
   * cookie lives as long as an admin's or finance user's sign-in may, not just the confirmation: once that
   * runs out the server still knows the secret's confirmation and says it ran out, instead of asking as if
   * there never was one.
   */
  const confirmed = (request: FastifyRequest, reply: FastifyReply, done: Confirmation) => {
    const { adminMs, financeMs } = app.domain.config.sessionLifetimes;
    sendStepUpCookie(
      { request, reply, pageOrigins: app.domain.config.webauthn?.origins },
      done.secret,
      Math.max(adminMs, financeMs),
    );
    return { steppedUpUntil: done.steppedUpUntil };
  };

  app.get(
    '/me/step-up',
    {
      config: { access: 'admin-step-up' },
      schema: {
        summary:
          "The signed-in admin's or finance user's passkeys and whether this sign-in has confirmed with one lately",
        tags: ['passkeys'],
        response: { 200: stepUpStatusSchema, ...errorResponses },
      },
    },
    (request) => ceremonies.status(adminSession(request)),
  );

  app.delete(
    '/me/step-up',
    {
      // Public: signing out must clear the browser's secret even when the session has already ended.
      config: { access: 'public' },
      schema: {
        summary: "Forget this browser's passkey confirmation (signing out)",
        description:
          'Clears the step-up cookie and forgets the confirmation its secret stands for, so it confirms nothing ' +
          'after sign-out. Holding the secret is all it needs; without one it only clears the cookie. 204.',
        tags: ['passkeys'],
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      clearStepUpCookie({ request, reply, pageOrigins: app.domain.config.webauthn?.origins });
      const secret = stepUpSecretOf(request);
      try {
        if (secret) await ceremonies.forgetBrowser(secret);
      } catch (error) {
        // The cookie is gone all the same; the confirmation left behind runs out within ADMIN_STEP_UP_MAX_AGE_SECONDS.
        request.log.warn({ err: error }, 'the signed-out browser’s passkey confirmation could not be forgotten');
      }
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/passkeys/options',
    {
      config: { access: 'admin-step-up' },
      onRequest: limitCeremonies,
      schema: {
        summary: 'Start setting up a passkey (WebAuthn creation options)',
        description:
          'A first passkey needs the one-time `enrollmentCode` (400 `invalid` without it or with a wrong, used ' +
          'or expired one) and a password sign-in within ADMIN_STEP_UP_MAX_AGE_SECONDS (else 403 ' +
          '`step-up-required`); another one needs a recent confirmation with an existing passkey.',
        tags: ['passkeys'],
        body: passkeyOptionsBodySchema.nullish(),
        response: { 200: passkeyCreationOptionsSchema, ...errorResponses },
      },
    },
    (request) => ceremonies.registrationOptions(adminSession(request), rp(request), request.body?.enrollmentCode),
  );

  app.post(
    '/me/passkeys',
    {
      config: { access: 'admin-step-up' },
      onRequest: limitCeremonies,
      bodyLimit: CEREMONY_BODY_LIMIT,
      schema: {
        summary: 'Finish setting up a passkey; this also confirms the sign-in in this browser (step-up cookie)',
        tags: ['passkeys'],
        body: passkeyRegistrationSchema,
        response: { 201: stepUpDoneSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { enrollmentCode, ...registration } = request.body;
      const done = await ceremonies.register(adminSession(request), rp(request), registration, enrollmentCode);
      return reply.code(201).send(confirmed(request, reply, done));
    },
  );

  app.post(
    '/me/step-up/options',
    {
      config: { access: 'admin-step-up' },
      onRequest: limitCeremonies,
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
      onRequest: limitCeremonies,
      bodyLimit: CEREMONY_BODY_LIMIT,
      schema: {
        summary:
          'Confirm this sign-in with a passkey: admin and finance calls that carry the step-up secret (cookie or ' +
          '`X-Admin-Step-Up`) are accepted until `steppedUpUntil`',
        tags: ['passkeys'],
        body: passkeyAssertionSchema,
        response: { 200: stepUpDoneSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      confirmed(request, reply, await ceremonies.authenticate(adminSession(request), rp(request), request.body)),
  );

  app.delete(
    '/users/:email/passkeys',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          "Reset another admin's or a finance user's passkeys (recovery): ends their sessions and answers the one-time enrollment " +
          'code they set up a new passkey with; 202 with `approval` when it waits for a second administrator',
        tags: ['passkeys'],
        params: emailParamsSchema,
        response: { 200: passkeysResetSchema, 202: approvalRequestedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email } = request.params;
      const outcome = await app.domain.adminApprovals.resetPasskeys({ email, actor: adminSession(request).email });
      return 'pending' in outcome ? reply.code(202).send({ email, approval: outcome.pending }) : outcome;
    },
  );

  app.post(
    '/users/:email/enrollment-code',
    {
      config: { access: 'admin' },
      schema: {
        summary:
          'Show a fresh one-time enrollment code for an administrator or finance user who has not set up a passkey ' +
          'yet: the code they had stops working, their sessions go on; 202 with `approval` when it waits for a ' +
          'second administrator',
        description:
          '404 `not-found` for an address not on the list; 409 `conflict` when no role of theirs needs a passkey, ' +
          'when they have one already (reset their passkeys instead), or when a request about them already waits. ' +
          'No body.',
        tags: ['passkeys'],
        params: emailParamsSchema,
        response: { 200: enrollmentCodeShownSchema, 202: approvalRequestedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { email } = request.params;
      const outcome = await app.domain.adminApprovals.newEnrollmentCode({ email, actor: adminSession(request).email });
      return 'pending' in outcome ? reply.code(202).send({ email, approval: outcome.pending }) : outcome;
    },
  );
};

export default passkeyRoutes;
