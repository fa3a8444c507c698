import { type App, deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import {
  IdentityProviderUnavailableError,
  InvalidTokenError,
  type IdentityProvider,
  type VerifiedToken,
} from './identity-provider.ts';

interface FirebaseErrorLike {
  code?: string;
}

const errorCode = (error: unknown) => (error as FirebaseErrorLike | undefined)?.code ?? '';

/** The provider failing (or unreachable) is not the token's fault: those codes must never become a 401. */
const PROVIDER_FAULT_CODES = new Set(['auth/internal-error', 'auth/quota-exceeded', 'auth/project-not-found']);

function toTokenError(error: unknown): Error {
  const code = errorCode(error);
  if (error instanceof IdentityProviderUnavailableError) return error;
  if (PROVIDER_FAULT_CODES.has(code)) return toProviderError(error);
  if (code === 'auth/id-token-expired') return new InvalidTokenError('expired');
  if (code === 'auth/id-token-revoked' || code === 'auth/user-disabled' || code === 'auth/user-not-found')
    return new InvalidTokenError('revoked');
  if (code.startsWith('auth/argument-error') || code === 'auth/invalid-id-token')
    return new InvalidTokenError('invalid');
  if (code.startsWith('auth/')) return new InvalidTokenError('invalid');
  return new IdentityProviderUnavailableError('The identity provider could not be reached', { cause: error });
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
  const app: App = initializeApp(
    { projectId: options.projectId },
    `portal-${process.pid}-${Date.now()}-${Math.random()}`,
  );
  const auth = getAuth(app);

  /** Creates the account, or finds the one that already has this address (`created` says which). */
  async function createOrFind(properties: { email: string; emailVerified: boolean }) {
    try {
      const user = await bounded(() => auth.createUser(properties));
      return { uid: user.uid, created: true };
    } catch (error) {
      if (errorCode(error) !== 'auth/email-already-exists') throw toProviderError(error);
      const existing = await bounded(() => auth.getUserByEmail(properties.email)).catch((lookupError: unknown) => {
        throw toProviderError(lookupError);
      });
      return { uid: existing.uid, created: false };
    }
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
        const decoded = await bounded(() => auth.verifyIdToken(token, true));
        return { uid: decoded.uid, email: decoded.email, expiresAtMs: decoded.exp * 1000 };
      } catch (error) {
        throw toTokenError(error);
      }
    },
    createUser: (email) => createOrFind({ email, emailVerified: false }),
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
    close: () => deleteApp(app),
  };
  return identity;
}
