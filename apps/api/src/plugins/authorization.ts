import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { bearerTokenOf } from '../http/bearer-token.ts';
import { clientKey } from '../rate-limits/client-key.ts';
import { sameSecret } from '../lib/same-secret.ts';
import { stepUpSecretOf } from '../passkeys/step-up-secret.ts';
import { InvalidTokenError, type VerifiedToken } from '../identity/identity-provider.ts';
import { DomainError } from '../domain-error.ts';
import { SESSION_ENDED_MESSAGE, sessionHasEnded } from '../sessions/session-lifetime.ts';
import { whyNotInvoiceReader } from '../users/invoice-reader.ts';
import type { UserRow } from '../users/repository.ts';

/**
 * Who may call a route. Every route under /api declares one; a route without it fails at start-up,
 * so forgetting authorization is impossible rather than silently public.
 * - public: anyone; a bearer token, when sent, must still be valid and allowlisted
 * - user: an allowlisted account
 * - admin: an allowlisted admin whose sign-in confirmed its passkey recently (ADMIN_STEP_UP_MAX_AGE_SECONDS),
 *   in the browser making the call (the step-up secret it carries)
 * - admin-or-service: such an admin, or a machine presenting the configured ingestion token
 * - admin-step-up: an allowlisted admin or finance user, confirmed or not: only the routes that set up and use
 *   the passkey
 * - finance: an allowlisted account with the finance role whose sign-in confirmed its passkey recently, as
 *   an admin's must (the admin role does not include it: an administrator keeps the allowlist, and reads
 *   invoices across parcels only when also given finance)
 */
/**
 * Who may call a route. `page`: the SPA's pages and files, which a browser asks for without a token; one sent
 * anyway is not verified (a page is the same for everyone, and verifying would cost an identity call).
 */
export type Access = 'page' | 'public' | 'user' | 'admin' | 'admin-or-service' | 'admin-step-up' | 'finance';

export interface Caller {
  uid: string;
  email: string;
  admin: boolean;
  finance: boolean;
  /** When this sign-in's password was entered (the token's auth_time): what step-ups and lifetimes bind to. */
  authTimeMs: number;
  /** "password", or the single sign-on provider's ID: linking a company sign-in needs a password sign-in. */
  signInProvider: string | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** True when the ingestion service token authorized this request. */
    serviceCaller: boolean;
    /** The verified identity behind a genuine token that was then refused, for the audit log. */
    refusedIdentity: { email: string | null; uid: string } | null;
  }
}

export const NOT_ALLOWED_MESSAGE =
  'Your account is not allowed to use this portal. Please contact the website administrator.';
const SESSION_MESSAGE = {
  expired: 'Your session has expired. Please sign in again.',
  revoked: 'Your session has ended. Please sign in again.',
  gone: 'Your session has ended. Please sign in again.',
  invalid: 'Your sign-in token is not valid. Please sign in again.',
} as const;

export const INGEST_NETWORK_MESSAGE = 'The ingestion token is not accepted from this network.';

export default fp<{ ingestToken?: string | undefined; ingestFrom?: ((ip: string) => boolean) | undefined }>(
  async (app, options) => {
    app.decorateRequest('caller', null);
    app.decorateRequest('serviceCaller', false);
    app.decorateRequest('refusedIdentity', null);

    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/api/') && !route.config?.access) {
        throw new Error(`Route ${route.method} ${route.url} declares no access level`);
      }
    });

    const companySignIn = app.domain.companySignIn;
    const acceptedSignIn = (provider: string | undefined) =>
      provider === 'password' || (companySignIn !== undefined && provider === companySignIn.providerId);

    const verifyFresh = (token: string) => app.domain.identity.verifyIdToken(token);

    // Each step answers there and then when what it needs is remembered (a token verified lately, a cached
    // allowlist row), so an allowed request after a person's first makes no promise here at all.
    function resolveCaller(request: FastifyRequest, token: string): Caller | Promise<Caller> {
      const verifying = app.domain.tokenCache.verify(token, verifyFresh, request.raw.socket);
      return verifying instanceof Promise
        ? verifying.then((verified) => callerOf(request, verified), refusedToken)
        : callerOf(request, verifying);
    }

    function refusedToken(error: unknown): never {
      if (error instanceof InvalidTokenError) {
        // Sessions ended on purpose (Sign out everywhere, End sessions): a new token would be refused too,
        // so the web app signs out and says so rather than retrying.
        const kind = error.reason === 'revoked' ? 'session-expired' : 'unauthenticated';
        throw new DomainError(kind, SESSION_MESSAGE[error.reason]);
      }
      throw error;
    }

    function callerOf(request: FastifyRequest, verified: VerifiedToken): Caller | Promise<Caller> {
      // From here the token is genuine: a refusal names who it was.
      request.refusedIdentity = { email: verified.email ?? null, uid: verified.uid };
      // Only the project's own accounts, signed in with their password or through the one configured single
      // sign-on provider (decision 0068): not another tenant's, not any other federated or a custom sign-in.
      if (verified.tenant !== undefined || !acceptedSignIn(verified.signInProvider)) {
        throw new DomainError('unauthenticated', NOT_ALLOWED_MESSAGE, 'not a password or SSO sign-in of this project');
      }
      const viaCompany = companySignIn !== undefined && verified.signInProvider === companySignIn.providerId;
      // The company's domains and a verified address first: nothing about the list is told to anyone else.
      if (viaCompany) companySignIn.checkAddress(verified);
      const finding = verified.email ? app.domain.allowlist.find(verified.email.toLowerCase()) : undefined;
      return finding instanceof Promise
        ? finding.then((row) => listedCaller(verified, row, viaCompany))
        : listedCaller(verified, finding, viaCompany);
    }

    function listedCaller(
      verified: VerifiedToken,
      row: UserRow | undefined,
      viaCompany: boolean,
    ): Caller | Promise<Caller> {
      const notReader = whyNotInvoiceReader(row);
      if (notReader !== undefined || !row) throw new DomainError('unauthenticated', NOT_ALLOWED_MESSAGE, notReader);
      // The row belongs to the account the portal created or took over for it, not to whoever holds the address.
      if (row.firebaseUid !== verified.uid) {
        throw new DomainError('unauthenticated', NOT_ALLOWED_MESSAGE, 'another account than the listed one');
      }
      // Counted from the password, whatever refreshes the token has had since: an old sign-in ends here.
      const lifetimes = app.domain.config.sessionLifetimes;
      const roles = { admin: row.admin, finance: row.finance };
      if (sessionHasEnded({ ...roles, authTimeMs: verified.authTimeMs, nowMs: Date.now(), lifetimes })) {
        throw new DomainError('session-expired', SESSION_ENDED_MESSAGE, 'sign-in older than the session lifetime');
      }
      const caller: Caller = {
        uid: verified.uid,
        email: row.email,
        admin: row.admin,
        finance: row.finance,
        authTimeMs: verified.authTimeMs,
        signInProvider: verified.signInProvider,
      };
      if (viaCompany || !row.activated) return admittedCaller(verified, row, viaCompany, caller);
      companySignIn?.rememberVerified(verified);
      return caller;
    }

    /** A company sign-in, or a first one: what it binds or marks is written before the request goes on. */
    async function admittedCaller(verified: VerifiedToken, row: UserRow, viaCompany: boolean, caller: Caller) {
      // The company identity bound to the row at its first link, and required of every later company sign-in.
      if (viaCompany && companySignIn) await companySignIn.admit(verified, row);
      else companySignIn?.rememberVerified(verified);
      if (!row.activated) await app.domain.users.update(row.email, { activated: true });
      return caller;
    }

    /** Void when the request may go on at once; a promise when a check had to read or write first. */
    function check(request: FastifyRequest): void | Promise<void> {
      const access = request.routeOptions.config.access;
      if (!access || access === 'page') return;
      const header = request.headers.authorization;
      const token = bearerTokenOf(header);
      if (header && !token)
        throw new DomainError('unauthenticated', 'The Authorization header must be "Bearer <token>".');
      if (access === 'admin-or-service' && token && options.ingestToken && sameSecret(token, options.ingestToken)) {
        // INGEST_TOKEN_NETWORKS: a copy of the token is no use outside the networks the ingestion job calls from.
        if (options.ingestFrom && !options.ingestFrom(request.ip))
          throw new DomainError('forbidden', INGEST_NETWORK_MESSAGE, 'ingestion token from another network');
        request.serviceCaller = true;
        return;
      }
      if (!token) return permit(request, access);
      const resolving = resolveCaller(request, token);
      if (resolving instanceof Promise) {
        return resolving.then((caller) => {
          request.caller = caller;
          return permit(request, access);
        });
      }
      request.caller = resolving;
      return permit(request, access);
    }

    function permit(request: FastifyRequest, access: Access): void | Promise<void> {
      if (access === 'public') return;
      if (!request.caller) throw new DomainError('unauthenticated', 'Please sign in to continue.');
      const { admin, finance } = request.caller;
      const allowed =
        access === 'user' || (access === 'finance' ? finance : access === 'admin-step-up' ? admin || finance : admin);
      if (!allowed) {
        throw new DomainError(
          'forbidden',
          'You do not have permission to do this. Please contact the website administrator.',
        );
      }
      // The password alone makes no admin or finance call: this very sign-in must have used its passkey
      // lately, in the browser the request comes from (the secret its ceremony answered with).
      // A person's own calls (every download) need no step-up: nothing of it is read for them.
      if (access === 'user') return;
      return stepUp(request, request.caller, access);
    }

    async function stepUp(request: FastifyRequest, caller: Caller, access: Access) {
      const session = { ...caller, stepUpSecret: stepUpSecretOf(request) };
      if (access === 'admin' || access === 'admin-or-service') await app.domain.passkeys.requireStepUp(session);
      if (access === 'finance') await app.domain.passkeys.requireStepUp(session, 'finance');
      // The ceremonies need no confirmation, but a browser that went quiet too long signs in again first.
      if (access === 'admin-step-up') await app.domain.passkeys.requireNotIdle(session);
    }

    /** What a refusal leaves behind, for the errors plugin to answer like every other. */
    function refusal(request: FastifyRequest, error: unknown): Error {
      if (!(error instanceof DomainError)) return error as Error;
      const identity = request.refusedIdentity;
      // Queued and folded per client, reason and minute: a flood of refusals costs a bounded number of rows.
      app.domain.auditTrail.refusal({
        client: clientKey(request.ip),
        actor: request.caller?.email ?? identity?.email ?? null,
        action: `${request.method} ${request.routeOptions.url}`,
        detail: [`${error.statusCode} ${error.message}`, error.reason, identity && `uid ${identity.uid}`]
          .filter(Boolean)
          .join('; '),
      });
      return error;
    }

    // A callback hook, not an async one: a request whose checks are all answered from memory (every download
    // after a person's first) goes on without a promise.
    function authorize(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
      let checking;
      try {
        checking = check(request);
      } catch (error) {
        done(refusal(request, error));
        return;
      }
      if (checking instanceof Promise)
        checking.then(
          () => done(),
          (error: unknown) => done(refusal(request, error)),
        );
      else done();
    }

    // onRequest, before the body is read or validated: a refused caller learns nothing and uploads nothing.
    app.addHook('onRequest', authorize);
  },
  { name: 'authorization', dependencies: ['domain'] },
);
