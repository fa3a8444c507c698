import { randomBytes } from 'node:crypto';
import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import {
  ForeignAccountError,
  IdentityProviderUnavailableError,
  InvalidTokenError,
  type IdentityProvider,
  type VerifiedToken,
} from './identity-provider.ts';
import { inSpan } from '../observability/spans.ts';

interface FirebaseErrorLike {
  code?: string;
}

/** Accounts the portal creates carry uids with this prefix; nobody signing up can choose a uid. */
const PORTAL_UID_PREFIX = 'portal-';

const errorCode = (error: unknown) => (error as FirebaseErrorLike | undefined)?.code ?? '';

/** The provider failing (or unreachable) is not the token's fault: those codes must never become a 401. */
const PROVIDER_FAULT_CODES = new Set(['auth/internal-error', 'auth/quota-exceeded', 'auth/project-not-found']);

function toTokenError(error: unknown): Error {
  const code = errorCode(error);
  if (error instanceof IdentityProviderUnavailableError) return error;
  if (PROVIDER_FAULT_CODES.has(code)) return toProviderError(error);
  if (code === 'auth/id-token-expired') return new InvalidTokenError('expired');
  if (code === 'auth/id-token-revoked') return new InvalidTokenError('revoked');
  if (code === 'auth/user-disabled' || code === 'auth/user-not-found') return new InvalidTokenError('gone');
  if (code.startsWith('auth/argument-error') || code === 'auth/invalid-id-token')
    return new InvalidTokenError('invalid');
  if (code.startsWith('auth/')) return new InvalidTokenError('invalid');
  return new IdentityProviderUnavailableError('The identity provider could not be reached', { cause: error });
}

/**
 * The person's id at the provider the token signed in with (`firebase.identities["oidc.acme"]`): Firebase
 * links one identity per provider to an account, so the list has one entry. None for a password sign-in.
 */
function providerSubjectOf(firebase: { sign_in_provider: string; identities: Record<string, unknown> }) {
  const provider = firebase.sign_in_provider;
  if (provider === 'password') return undefined;
  const ids = firebase.identities[provider];
  return Array.isArray(ids) && typeof ids[0] === 'string' && ids[0] !== '' ? ids[0] : undefined;
}

function toProviderError(error: unknown): Error {
  if (error instanceof IdentityProviderUnavailableError) return error;
  return new IdentityProviderUnavailableError(`Identity provider call failed (${errorCode(error) || 'no code'})`, {
    cause: error,
  });
}

/**
 * firebase-admin reads FIREBASE_AUTH_EMULATOR_HOST from the environment; the config module has already
 * refused an emulator host paired with a non-demo project.
 */
/**
 * Gives up waiting after `ms`: firebase-admin has no per-call timeout, so a provider that accepts the
 * connection and never answers would otherwise hold the request (and its caller) for minutes.
 */
function within<T>(ms: number, call: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new IdentityProviderUnavailableError(`The identity provider did not answer within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([call(), timeout]).finally(() => clearTimeout(timer));
}

export function createFirebaseIdentity(options: {
  projectId: string;
  emulatorHost?: string | undefined;
  timeoutMs: number;
}) {
  const bounded = <T>(call: () => Promise<T>) => within(options.timeoutMs, call);
  if (options.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = options.emulatorHost;
  // A blank value means "no emulator" to the configuration but "emulator, no signature checks" to firebase-admin.
  else if (process.env.FIREBASE_AUTH_EMULATOR_HOST?.trim() === '') delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const app: App = initializeApp(
    { projectId: options.projectId },
    `portal-${process.pid}-${Date.now()}-${Math.random()}`,
  );
  const auth = getAuth(app);

  /**
   * Creates the account under a uid only the portal gives (a self sign-up gets a random one). An account that
   * already has the address under such a uid is the portal's own (a concurrent add, or a leftover of a failed
   * one, whose password nobody knows) and is answered as it is. Any other was made by someone else (a self
   * sign-up, another app of the same project, an outside account that took this address): it is refused
   * with its uid and left as it is.
   */
  async function createPortalAccount(properties: { email: string; emailVerified: boolean }) {
    try {
      const user = await bounded(() =>
        auth.createUser({
          ...properties,
          uid: `${PORTAL_UID_PREFIX}${randomBytes(15).toString('base64url')}`,
        }),
      );
      return { uid: user.uid, created: true };
    } catch (error) {
      if (errorCode(error) !== 'auth/email-already-exists') throw toProviderError(error);
    }
    let existing;
    try {
      existing = await bounded(() => auth.getUserByEmail(properties.email));
    } catch (error) {
      throw toProviderError(error);
    }
    if (existing.uid.startsWith(PORTAL_UID_PREFIX)) return { uid: existing.uid, created: false };
    throw new ForeignAccountError(existing.uid);
  }

  /**
   * `createPortalAccount` for many addresses: the accounts they have already in lookups of 100 (the provider's
   * most per call, sent together), the others made in imports of 1,000, each under a uid only the portal gives. An import the
   * provider refused for one address (an account made meanwhile) leaves it out, for `createPortalAccount`.
   */
  async function createPortalAccounts(emails: readonly string[]) {
    const answers = new Map<string, { uid: string; created: boolean } | Error>();
    try {
      const lookups = [];
      for (let start = 0; start < emails.length; start += 100) {
        const batch = emails.slice(start, start + 100);
        lookups.push(bounded(() => auth.getUsers(batch.map((email) => ({ email })))));
      }
      // Side by side: ten lookups of 100 are one round trip's wait, not ten.
      for (const { users } of await Promise.all(lookups)) {
        for (const user of users) {
          if (!user.email) continue;
          const email = user.email.toLowerCase();
          answers.set(
            email,
            user.uid.startsWith(PORTAL_UID_PREFIX)
              ? { uid: user.uid, created: false }
              : new ForeignAccountError(user.uid),
          );
        }
      }
      const missing = emails.filter((email) => !answers.has(email));
      for (let start = 0; start < missing.length; start += 1000) {
        const batch = missing.slice(start, start + 1000).map((email) => ({
          email,
          emailVerified: true,
          uid: `${PORTAL_UID_PREFIX}${randomBytes(15).toString('base64url')}`,
        }));
        const result = await bounded(() => auth.importUsers(batch));
        const refused = new Set(result.errors.map((failure) => failure.index));
        batch.forEach((account, index) => {
          if (!refused.has(index)) answers.set(account.email, { uid: account.uid, created: true });
        });
      }
    } catch (error) {
      throw toProviderError(error);
    }
    return answers;
  }

  /** Deleting or revoking an account that is already gone has nothing left to do. */
  async function ignoringMissingUser(call: () => Promise<void>) {
    try {
      await bounded(call);
    } catch (error) {
      if (errorCode(error) !== 'auth/user-not-found') throw toProviderError(error);
    }
  }

  const identity: IdentityProvider & { close(): Promise<void> } = {
    async verifyIdToken(token): Promise<VerifiedToken> {
      try {
        const decoded = await inSpan('firebase verify id token', {}, () =>
          bounded(() => auth.verifyIdToken(token, true)),
        );
        return {
          uid: decoded.uid,
          email: decoded.email,
          expiresAtMs: decoded.exp * 1000,
          authTimeMs: decoded.auth_time * 1000,
          signInProvider: decoded.firebase.sign_in_provider,
          tenant: decoded.firebase.tenant,
          emailVerified: decoded.email_verified === true,
          providerSubject: providerSubjectOf(decoded.firebase),
        };
      } catch (error) {
        throw toTokenError(error);
      }
    },
    createUser: (email) => createPortalAccount({ email, emailVerified: true }),
    createUsers: createPortalAccounts,
    async findUserByEmail(email) {
      try {
        const user = await bounded(() => auth.getUserByEmail(email));
        return { uid: user.uid };
      } catch (error) {
        if (errorCode(error) === 'auth/user-not-found') return undefined;
        throw toProviderError(error);
      }
    },
    deleteUser: (uid) => ignoringMissingUser(() => auth.deleteUser(uid)),
    revokeSessions: (uid) => ignoringMissingUser(() => auth.revokeRefreshTokens(uid)),
    async hasPassword(uid) {
      try {
        const user = await bounded(() => auth.getUser(uid));
        return user.providerData.some((provider) => provider.providerId === 'password');
      } catch (error) {
        if (errorCode(error) === 'auth/user-not-found') return false;
        throw toProviderError(error);
      }
    },
    markEmailVerified: (uid) =>
      ignoringMissingUser(async () => {
        await auth.updateUser(uid, { emailVerified: true });
      }),
    close: () => deleteApp(app),
  };
  return identity;
}
