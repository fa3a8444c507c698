import { createHash } from 'node:crypto';
import type {
  PasskeyAssertion,
  PasskeyCreationOptions,
  PasskeyRegistration,
  PasskeyRequestOptions,
  PasskeySummary,
  StepUpStatus,
} from '@portal/contract';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { AuditEvent } from '../audit/repository.ts';
import { DomainError, type RefusalKind } from '../domain-error.ts';
import { sessionIdleMessage, sessionWentIdle } from '../sessions/session-lifetime.ts';
import type { EnrollmentCodes } from './enrollment-codes.ts';
import type { PasskeyRepository } from './passkey-repository.ts';
import type { SessionBoundStore, SignIn } from './session-bound-store.ts';
import { hashOfSecret, newStepUpSecret } from './step-up-secret.ts';
import { judgeStepUp, signedInRecently } from './step-up-rule.ts';

/** Who the passkeys are for and where the ceremonies may happen: the RP ID and the pages' origins. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/**
 * The signed-in administrator: their sign-in (uid, auth_time), their allowlist row's address, and the
 * step-up secret this browser got from its last ceremony, when the request carried one.
 */
export interface AdminSession extends SignIn {
  email: string;
  stepUpSecret?: string | undefined;
}

/** A finished ceremony: until when the confirmation holds, and the secret that carries it (never logged). */
export interface Confirmation {
  steppedUpUntil: string;
  secret: string;
}

export interface PasskeyCeremoniesDeps {
  passkeys: PasskeyRepository;
  store: SessionBoundStore;
  enrollmentCodes: EnrollmentCodes;
  /** A finished ceremony is audited best-effort; its refusals are queued, so a flood of them costs little. */
  audit: Pick<AuditTrail, 'bestEffort' | 'queued'>;
  /** The allowlist row of an address: its account's uid (whose confirmations a reset ends) and its role. */
  findUser(email: string): Promise<{ firebaseUid: string | null; admin: boolean; finance: boolean } | undefined>;
  /** Ends every session of an address (a reset): throws, having changed nothing, when that cannot be done. */
  endSessions(input: { email: string; actor: string }): Promise<unknown>;
  /** How long a confirmation holds (ADMIN_STEP_UP_MAX_AGE_SECONDS). */
  stepUpMaxAgeMs: number;
  /** The longest an administrator's or finance user's sign-in lives: confirmations older than that are swept. */
  privilegedSessionMaxAgeMs: number;
  /** How long such a sign-in may go without a call before it ends (PRIVILEGED_SESSION_IDLE_MINUTES). */
  privilegedIdleMs: number;
}

/** Which calls a step-up is asked for: it decides where the refusal sends a person without a passkey. */
export type StepUpPurpose = 'admin' | 'finance';

/** Calls closer together than this note no new activity: one write a minute at most, not one per call. */
const ACTIVITY_GRANULARITY_MS = 30_000;

/** The browser gives up on a ceremony after this; the challenge lives a little longer than any answer. */
const CEREMONY_TIMEOUT_MS = 120_000;
const CHALLENGE_TTL_MS = 5 * 60_000;
/**
 * EdDSA, ES256, RS256: what authenticators make today. Named rather than left to the library, whose default
 * probes Node for the post-quantum ML-DSA-44 through an experimental Web Crypto call (a warning on stderr,
 * and a different list on Node 22 and 24).
 */
const SUPPORTED_ALGORITHMS = [-8, -7, -257];

/** "10 minutes", "90 seconds": how long a confirmation lasts, as an admin reads it. */
const lengthOf = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  if (seconds % 60 !== 0) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
};

export const NO_PASSKEY_MESSAGE =
  'Administrators confirm who they are with a passkey as well as their password. Open the admin page to set one up.';
export const FINANCE_NO_PASSKEY_MESSAGE =
  'Searching and downloading invoices needs a passkey as well as your password. Open the Invoices page to set one up.';
export const STEP_UP_MESSAGE = 'Please confirm it is you with your passkey to continue.';
export const stepUpExpiredMessage = (maxAgeMs: number) =>
  `Your passkey confirmation has run out (it lasts ${lengthOf(maxAgeMs)}). Please confirm it is you again.`;
export const SIGN_IN_AGAIN_MESSAGE = 'To set up a passkey, please enter your password again first.';
export const ENROLLMENT_CODE_MESSAGE =
  'To set up your first passkey, enter the enrollment code the administrator who gave you your role gave you.';
export const WRONG_CODE_MESSAGE =
  'This enrollment code is not right, was already used or has run out. Ask another administrator for a new one.';
export const NO_PASSKEY_ROLE_MESSAGE = (email: string) =>
  `${email} is neither an administrator nor a finance user, so they need no passkey.`;
export const HAS_PASSKEY_MESSAGE = (email: string) =>
  `${email} already has a passkey. Reset their passkeys to give them a new enrollment code.`;
export const CHALLENGE_GONE_MESSAGE = 'This passkey request has run out or was already used. Please try again.';
export const NOT_VERIFIED_MESSAGE =
  'Your passkey could not be verified. Please try again, or ask another administrator to reset your passkeys.';
export const UNKNOWN_PASSKEY_MESSAGE =
  'This passkey is not set up for your account here. Use the passkey you set up for this portal, or ask another administrator to reset your passkeys.';
export const ALREADY_SET_UP_MESSAGE = 'This passkey is already set up.';
export const SELF_RESET_MESSAGE = 'You cannot reset your own passkeys. Ask another administrator to do it.';
export const notOnListMessage = (email: string) => `${email} is not on the list of allowed users.`;

/** The challenge the browser signed, read from its client data; undefined when that is not readable. */
function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const clientData = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof clientData.challenge === 'string' && clientData.challenge.length > 0
      ? clientData.challenge
      : undefined;
  } catch {
    return undefined;
  }
}

/** A stable user handle per address that does not carry the address itself onto the authenticator. */
const userHandleOf = (email: string) => createHash('sha256').update(`portal-admin:${email}`).digest();

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The passkey ceremonies (enroll, step up), the step-up check every admin call passes, the enrollment codes
 * a first passkey needs, and the recovery reset. Passkeys belong to the allowlist row; challenges to one
 * sign-in (the token's uid and auth_time); a confirmation to one sign-in in one browser: the one holding the
 * secret its ceremony answered with. So a new sign-in, even with the right password, starts unconfirmed, and
 * so does a second sign-in within the same second, or whoever copied the refresh token.
 */
export function createPasskeyCeremonies(deps: PasskeyCeremoniesDeps) {
  const { passkeys, store, enrollmentCodes, stepUpMaxAgeMs } = deps;

  function refuse(event: Omit<AuditEvent, 'outcome'>, kind: RefusalKind, message: string, reason: string): never {
    deps.audit.queued({ ...event, outcome: 'refused', detail: reason });
    throw new DomainError(kind, message, reason);
  }

  /**
   * Where this browser's confirmation stands. A sign-in whose browser confirmed and then went quiet for
   * longer than the idle time has ended: it signs in again, a passkey alone does not bring it back.
   */
  async function stepUpVerdict(session: AdminSession) {
    const secretHash = session.stepUpSecret === undefined ? undefined : hashOfSecret(session.stepUpSecret);
    const { confirmedAtMs, lastSeenAtMs, nowMs } = await store.lastConfirmation(session, secretHash);
    if (lastSeenAtMs !== undefined && sessionWentIdle({ lastSeenAtMs, nowMs, idleMs: deps.privilegedIdleMs })) {
      throw new DomainError('session-expired', sessionIdleMessage(deps.privilegedIdleMs), 'idle for too long');
    }
    const verdict = judgeStepUp({ steppedUpAtMs: confirmedAtMs, nowMs, maxAgeMs: stepUpMaxAgeMs });
    return { verdict, nowMs, secretHash, lastSeenAtMs };
  }

  /**
   * Throws the step-up refusal unless this sign-in, in this browser, confirmed its passkey recently enough;
   * an accepted call counts as activity.
   */
  async function requireStepUp(session: AdminSession, purpose: StepUpPurpose = 'admin'): Promise<void> {
    const { verdict, nowMs, secretHash, lastSeenAtMs } = await stepUpVerdict(session);
    if (verdict.holds) {
      if (secretHash && (lastSeenAtMs === undefined || nowMs - lastSeenAtMs >= ACTIVITY_GRANULARITY_MS)) {
        await store.noteActivity(secretHash);
      }
      return;
    }
    if (verdict.why === 'none' && (await passkeys.countFor(session.email)) === 0) {
      const message = purpose === 'finance' ? FINANCE_NO_PASSKEY_MESSAGE : NO_PASSKEY_MESSAGE;
      throw new DomainError('step-up-required', message, 'no passkey set up');
    }
    const message = verdict.why === 'expired' ? stepUpExpiredMessage(stepUpMaxAgeMs) : STEP_UP_MESSAGE;
    throw new DomainError('step-up-required', message, `passkey confirmation ${verdict.why}`);
  }

  /**
   * A first passkey needs the one-time enrollment code whoever made this person an administrator (or reset
   * their passkeys) gave them, and a recent password: a stolen password alone cannot set up the thief's key.
   * Any further passkey needs the passkey the admin already has, like every other admin call. Says whether
   * this is a first passkey, whose code the finished ceremony then uses up.
   */
  async function mayEnroll(
    session: AdminSession,
    event: Omit<AuditEvent, 'outcome'>,
    enrollmentCode: string | undefined,
  ): Promise<{ first: boolean }> {
    if ((await passkeys.countFor(session.email)) > 0) {
      try {
        await requireStepUp(session);
      } catch (error) {
        if (error instanceof DomainError) deps.audit.queued({ ...event, outcome: 'refused', detail: error.reason });
        throw error;
      }
      return { first: false };
    }
    if (!enrollmentCode) refuse(event, 'invalid', ENROLLMENT_CODE_MESSAGE, 'first passkey without an enrollment code');
    if (!(await enrollmentCodes.holds(session.email, enrollmentCode))) {
      refuse(event, 'invalid', WRONG_CODE_MESSAGE, 'wrong, used or expired enrollment code');
    }
    const { nowMs } = await store.lastConfirmation(session, undefined);
    if (!signedInRecently({ authTimeMs: session.authTimeMs, nowMs, maxAgeMs: stepUpMaxAgeMs })) {
      refuse(event, 'step-up-required', SIGN_IN_AGAIN_MESSAGE, 'first passkey without a recent password');
    }
    return { first: true };
  }

  /** A fresh secret for the browser that just did a ceremony; only its hash is kept. */
  async function confirm(session: AdminSession): Promise<Confirmation> {
    const secret = newStepUpSecret();
    const confirmedAt = await store.recordConfirmation(session, hashOfSecret(secret), deps.privilegedSessionMaxAgeMs);
    return { steppedUpUntil: new Date(confirmedAt.getTime() + stepUpMaxAgeMs).toISOString(), secret };
  }

  async function takeChallenge(
    session: AdminSession,
    purpose: 'registration' | 'authentication',
    clientDataJSON: string,
    event: Omit<AuditEvent, 'outcome'>,
  ): Promise<string> {
    const challenge = challengeOf(clientDataJSON);
    if (challenge && (await store.consumeChallenge(session, purpose, challenge))) return challenge;
    return refuse(event, 'invalid', CHALLENGE_GONE_MESSAGE, 'unknown, used or expired challenge');
  }

  /** A new one-time code for an administrator without a passkey; any earlier code stops working. */
  async function issueCode(email: string, actor: string) {
    const issued = await enrollmentCodes.issue(email, actor);
    await deps.audit.bestEffort({
      actor,
      action: 'passkeys.enrollment-code',
      target: email,
      outcome: 'ok',
      detail: null,
    });
    return { code: issued.code, expiresAt: issued.expiresAt.toISOString() };
  }

  return {
    requireStepUp,

    /** Signing out in a browser: the confirmation its secret stands for confirms nothing more. */
    forgetBrowser: (secret: string) => store.forgetConfirmationOf(hashOfSecret(secret)),
    /** Refuses a sign-in whose browser went quiet for too long (the ceremonies' own calls, which need no step-up). */
    async requireNotIdle(session: AdminSession): Promise<void> {
      await stepUpVerdict(session);
    },

    async status(session: AdminSession): Promise<StepUpStatus> {
      const [count, { verdict, nowMs }] = await Promise.all([passkeys.countFor(session.email), stepUpVerdict(session)]);
      return {
        passkeys: count,
        steppedUpUntil: verdict.holds ? new Date(verdict.expiresAtMs).toISOString() : null,
        maxAgeSeconds: Math.round(stepUpMaxAgeMs / 1000),
        recentSignIn: signedInRecently({ authTimeMs: session.authTimeMs, nowMs, maxAgeMs: stepUpMaxAgeMs }),
      };
    },

    async registrationOptions(
      session: AdminSession,
      rp: RelyingParty,
      enrollmentCode: string | undefined,
    ): Promise<PasskeyCreationOptions> {
      const event = { actor: session.email, action: 'passkeys.enroll' as const, target: session.email };
      await mayEnroll(session, event, enrollmentCode);
      const existing = await passkeys.listFor(session.email);
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: session.email,
        userDisplayName: session.email,
        userID: userHandleOf(session.email),
        attestationType: 'none',
        // The browser refuses to make a second passkey on an authenticator that already holds one of these.
        excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
        timeout: CEREMONY_TIMEOUT_MS,
        supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
      });
      await store.issueChallenge(session, 'registration', options.challenge, CHALLENGE_TTL_MS);
      // WebAuthn's JSON as the library wrote it; the contract names the parts the portal relies on.
      return options as PasskeyCreationOptions;
    },

    /**
     * Stores the new passkey; making it proves the person is there, so it also confirms this sign-in in
     * this browser. A first passkey uses its enrollment code up, once the authenticator's answer checked out.
     */
    async register(
      session: AdminSession,
      rp: RelyingParty,
      response: PasskeyRegistration,
      enrollmentCode: string | undefined,
    ): Promise<Confirmation> {
      const event = { actor: session.email, action: 'passkeys.enroll' as const, target: session.email };
      const challenge = await takeChallenge(session, 'registration', response.response.clientDataJSON, event);
      const { first } = await mayEnroll(session, event, enrollmentCode);
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response: response as unknown as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.id,
          requireUserVerification: true,
          supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
        });
      } catch (error) {
        return refuse(event, 'invalid', NOT_VERIFIED_MESSAGE, describe(error));
      }
      if (!verification.verified) return refuse(event, 'invalid', NOT_VERIFIED_MESSAGE, 'not verified');
      const info = verification.registrationInfo;
      // Racing answers with one code: only one takes it.
      if (first && !(await enrollmentCodes.consume(session.email, enrollmentCode ?? ''))) {
        return refuse(event, 'invalid', WRONG_CODE_MESSAGE, 'enrollment code used meanwhile');
      }
      const added = await passkeys.insert({
        credentialId: info.credential.id,
        email: session.email,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? [],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
      });
      if (!added) return refuse(event, 'conflict', ALREADY_SET_UP_MESSAGE, 'credential id already registered');
      const done = await confirm(session);
      await deps.audit.bestEffort({
        ...event,
        outcome: 'ok',
        detail: `${first ? 'first ' : ''}${info.credentialDeviceType} passkey`,
      });
      return done;
    },

    async authenticationOptions(session: AdminSession, rp: RelyingParty): Promise<PasskeyRequestOptions> {
      const existing = await passkeys.listFor(session.email);
      if (existing.length === 0) throw new DomainError('step-up-required', NO_PASSKEY_MESSAGE, 'no passkey set up');
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        allowCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
        userVerification: 'required',
        timeout: CEREMONY_TIMEOUT_MS,
      });
      await store.issueChallenge(session, 'authentication', options.challenge, CHALLENGE_TTL_MS);
      return options as PasskeyRequestOptions;
    },

    /** Checks the passkey's signature over this sign-in's challenge, then confirms this browser. */
    async authenticate(session: AdminSession, rp: RelyingParty, response: PasskeyAssertion): Promise<Confirmation> {
      const event = { actor: session.email, action: 'passkeys.step-up' as const, target: session.email };
      const challenge = await takeChallenge(session, 'authentication', response.response.clientDataJSON, event);
      const passkey = await passkeys.find(response.id, session.email);
      if (!passkey) return refuse(event, 'invalid', UNKNOWN_PASSKEY_MESSAGE, 'passkey not registered to this admin');
      let verification;
      try {
        verification = await verifyAuthenticationResponse({
          response: response as unknown as AuthenticationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.id,
          credential: {
            id: passkey.credentialId,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: passkey.counter,
            transports: passkey.transports,
          },
          requireUserVerification: true,
        });
      } catch (error) {
        return refuse(event, 'invalid', NOT_VERIFIED_MESSAGE, describe(error));
      }
      if (!verification.verified) return refuse(event, 'invalid', NOT_VERIFIED_MESSAGE, 'not verified');
      const counted = await passkeys.recordUse(passkey.credentialId, verification.authenticationInfo.newCounter);
      if (!counted) return refuse(event, 'invalid', NOT_VERIFIED_MESSAGE, 'signature counter did not move forward');
      const done = await confirm(session);
      await deps.audit.bestEffort({ ...event, outcome: 'ok', detail: null });
      return done;
    },

    /**
     * Recovery: ends the target's sessions (whoever holds their password and a session is out), removes every
     * passkey and confirmation of theirs, and issues the enrollment code they set up a new passkey with. The
     * sessions end first: when the identity provider cannot do that, nothing has changed.
     */
    async resetPasskeys(input: { email: string; actor: string }) {
      const { email, actor } = input;
      const event = { actor, action: 'passkeys.reset' as const, target: email };
      if (email === actor) refuse(event, 'conflict', SELF_RESET_MESSAGE, 'own passkeys');
      const row = await deps.findUser(email);
      if (!row) refuse(event, 'not-found', notOnListMessage(email), 'not on the list');
      if (!row.admin && !row.finance)
        refuse(event, 'conflict', NO_PASSKEY_ROLE_MESSAGE(email), 'no role needs a passkey');
      await deps.endSessions({ email, actor });
      const removed = await passkeys.removeAllFor(email);
      if (row.firebaseUid) await store.forgetConfirmations(row.firebaseUid);
      await deps.audit.bestEffort({
        ...event,
        outcome: 'ok',
        detail: removed === 1 ? '1 passkey removed' : `${removed} passkeys removed`,
      });
      return { email, removed, enrollment: await issueCode(email, actor) };
    },

    passkeyCount: (email: string) => passkeys.countFor(email),

    /** Each address's passkeys as the admin list shows them (set up, last used); addresses without any are absent. */
    async passkeysOf(emails: string[]): Promise<Map<string, PasskeySummary[]>> {
      const byEmail = new Map<string, PasskeySummary[]>();
      for (const row of await passkeys.summariesFor(emails)) {
        const summary = { createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
        byEmail.set(row.email, [...(byEmail.get(row.email) ?? []), summary]);
      }
      return byEmail;
    },

    /**
     * A code for someone just made an administrator or given the finance role, unless they still have a
     * passkey from before.
     */
    async codeForNewAdmin(input: { email: string; actor: string }) {
      if ((await passkeys.countFor(input.email)) > 0) return undefined;
      return issueCode(input.email, input.actor);
    },

    /**
     * The one-time code an administrator without a passkey sets up their first with: for whoever made them
     * an administrator (the admin screen does it on promotion, the CLI for the first administrator).
     */
    async issueEnrollmentCode(input: { email: string; actor: string }) {
      const { email, actor } = input;
      const event = { actor, action: 'passkeys.enrollment-code' as const, target: email };
      const row = await deps.findUser(email);
      if (!row) refuse(event, 'not-found', notOnListMessage(email), 'not on the list');
      if (!row.admin && !row.finance)
        refuse(event, 'conflict', NO_PASSKEY_ROLE_MESSAGE(email), 'no role needs a passkey');
      if ((await passkeys.countFor(email)) > 0) refuse(event, 'conflict', HAS_PASSKEY_MESSAGE(email), 'has a passkey');
      return issueCode(email, actor);
    },
  };
}

export type PasskeyCeremonies = ReturnType<typeof createPasskeyCeremonies>;
