import { createHash } from 'node:crypto';
import type {
  PasskeyAssertion,
  PasskeyCreationOptions,
  PasskeyRegistration,
  PasskeyRequestOptions,
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
import type { AuditEvent } from '../audit/repository.ts';
import { DomainError, type RefusalKind } from '../domain-error.ts';
import type { PasskeyRepository } from './passkey-repository.ts';
import type { SessionBoundStore, SignIn } from './session-bound-store.ts';
import { judgeStepUp, signedInRecently } from './step-up-rule.ts';

/** Who the passkeys are for and where the ceremonies may happen: the RP ID and the pages' origins. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** The signed-in administrator: their sign-in (uid, auth_time) and their allowlist row's address. */
export interface AdminSession extends SignIn {
  email: string;
}

export interface PasskeyCeremoniesDeps {
  passkeys: PasskeyRepository;
  store: SessionBoundStore;
  /** Writes an audit entry; never throws (a finished ceremony must not fail on the audit log). */
  audit(event: AuditEvent): Promise<void>;
  /** The allowlist row of an address, for a reset: its account's uid, whose confirmations end with it. */
  findUser(email: string): Promise<{ firebaseUid: string | null } | undefined>;
  /** How long a confirmation holds (ADMIN_STEP_UP_MAX_AGE_SECONDS). */
  stepUpMaxAgeMs: number;
  /** The longest an administrator's sign-in lives: confirmations older than that are swept. */
  adminSessionMaxAgeMs: number;
}

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
export const STEP_UP_MESSAGE = 'Please confirm it is you with your passkey to continue.';
export const stepUpExpiredMessage = (maxAgeMs: number) =>
  `Your passkey confirmation has run out (it lasts ${lengthOf(maxAgeMs)}). Please confirm it is you again.`;
export const SIGN_IN_AGAIN_MESSAGE = 'To set up a passkey, please enter your password again first.';
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
 * The passkey ceremonies (enroll, step up), the step-up check every admin call passes, and the recovery
 * reset. Passkeys belong to the allowlist row; challenges and confirmations to one sign-in (the token's
 * uid and auth_time), so a new sign-in, even with the right password, starts unconfirmed.
 */
export function createPasskeyCeremonies(deps: PasskeyCeremoniesDeps) {
  const { passkeys, store, stepUpMaxAgeMs } = deps;

  async function refuse(
    event: Omit<AuditEvent, 'outcome'>,
    kind: RefusalKind,
    message: string,
    reason: string,
  ): Promise<never> {
    await deps.audit({ ...event, outcome: 'refused', detail: reason });
    throw new DomainError(kind, message, reason);
  }

  async function stepUpVerdict(session: SignIn) {
    const { steppedUpAtMs, nowMs } = await store.lastStepUp(session);
    return { verdict: judgeStepUp({ steppedUpAtMs, nowMs, maxAgeMs: stepUpMaxAgeMs }), nowMs };
  }

  /** Throws the step-up refusal unless this sign-in confirmed its passkey recently enough. */
  async function requireStepUp(session: AdminSession): Promise<void> {
    const { verdict } = await stepUpVerdict(session);
    if (verdict.holds) return;
    if (verdict.why === 'none' && (await passkeys.countFor(session.email)) === 0) {
      throw new DomainError('step-up-required', NO_PASSKEY_MESSAGE, 'no passkey set up');
    }
    const message = verdict.why === 'expired' ? stepUpExpiredMessage(stepUpMaxAgeMs) : STEP_UP_MESSAGE;
    throw new DomainError('step-up-required', message, `passkey confirmation ${verdict.why}`);
  }

  /**
   * A first passkey needs a recent password (the sign-in itself is the proof); any further one needs the
   * passkey the admin already has, like every other admin call.
   */
  async function mayEnroll(session: AdminSession, event: Omit<AuditEvent, 'outcome'>) {
    if ((await passkeys.countFor(session.email)) > 0) {
      try {
        await requireStepUp(session);
      } catch (error) {
        if (error instanceof DomainError) await deps.audit({ ...event, outcome: 'refused', detail: error.reason });
        throw error;
      }
      return;
    }
    const { nowMs } = await store.lastStepUp(session);
    if (!signedInRecently({ authTimeMs: session.authTimeMs, nowMs, maxAgeMs: stepUpMaxAgeMs })) {
      await refuse(event, 'step-up-required', SIGN_IN_AGAIN_MESSAGE, 'first passkey without a recent password');
    }
  }

  async function confirm(session: AdminSession) {
    const steppedUpAt = await store.recordStepUp(session, deps.adminSessionMaxAgeMs);
    return { steppedUpUntil: new Date(steppedUpAt.getTime() + stepUpMaxAgeMs).toISOString() };
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

  return {
    requireStepUp,

    async status(session: AdminSession): Promise<StepUpStatus> {
      const [count, { verdict, nowMs }] = await Promise.all([passkeys.countFor(session.email), stepUpVerdict(session)]);
      return {
        passkeys: count,
        steppedUpUntil: verdict.holds ? new Date(verdict.expiresAtMs).toISOString() : null,
        maxAgeSeconds: Math.round(stepUpMaxAgeMs / 1000),
        recentSignIn: signedInRecently({ authTimeMs: session.authTimeMs, nowMs, maxAgeMs: stepUpMaxAgeMs }),
      };
    },

    async registrationOptions(session: AdminSession, rp: RelyingParty): Promise<PasskeyCreationOptions> {
      await mayEnroll(session, { actor: session.email, action: 'passkeys.enroll', target: session.email });
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

    /** Stores the new passkey; making it proves the person is there, so it also confirms this sign-in. */
    async register(session: AdminSession, rp: RelyingParty, response: PasskeyRegistration) {
      const event = { actor: session.email, action: 'passkeys.enroll', target: session.email };
      const challenge = await takeChallenge(session, 'registration', response.response.clientDataJSON, event);
      await mayEnroll(session, event);
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
      await deps.audit({ ...event, outcome: 'ok', detail: `${info.credentialDeviceType} passkey` });
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

    /** Checks the passkey's signature over this sign-in's challenge, then records the confirmation. */
    async authenticate(session: AdminSession, rp: RelyingParty, response: PasskeyAssertion) {
      const event = { actor: session.email, action: 'passkeys.step-up', target: session.email };
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
      await deps.audit({ ...event, outcome: 'ok', detail: null });
      return done;
    },

    /**
     * Recovery: removes every passkey of an address, so its owner sets up a new one on their next visit to
     * the admin page (with their password entered again), and ends its current confirmations.
     */
    async resetPasskeys(input: { email: string; actor: string }) {
      const { email, actor } = input;
      const event = { actor, action: 'passkeys.reset', target: email };
      if (email === actor) return refuse(event, 'conflict', SELF_RESET_MESSAGE, 'own passkeys');
      const row = await deps.findUser(email);
      if (!row) return refuse(event, 'not-found', notOnListMessage(email), 'not on the list');
      const removed = await passkeys.removeAllFor(email);
      if (row.firebaseUid) await store.forgetStepUps(row.firebaseUid);
      await deps.audit({
        ...event,
        outcome: 'ok',
        detail: removed === 1 ? '1 passkey removed' : `${removed} passkeys removed`,
      });
      return { email, removed };
    },
  };
}

export type PasskeyCeremonies = ReturnType<typeof createPasskeyCeremonies>;
