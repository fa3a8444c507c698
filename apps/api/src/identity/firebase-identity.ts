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

function toTokenError(error: unknown): Error {
  const code = errorCode(error);
  if (code === 'auth/id-token-expired') return new InvalidTokenError('expired');
  if (code === 'auth/id-token-revoked' || code === 'auth/user-disabled' || code === 'auth/user-not-found')
    return new InvalidTokenError('revoked');
  if (code.startsWith('auth/argument-error') || code === 'auth/invalid-id-token')
    return new InvalidTokenError('invalid');
  if (code.startsWith('auth/')) return new InvalidTokenError('invalid');
  return new IdentityProviderUnavailableError('The identity provider could not be reached', { cause: error });
}

function toProviderError(error: unknown): Error {
  return new IdentityProviderUnavailableError(`Identity provider call failed (${errorCode(error) || 'no code'})`, {
    cause: error,
  });
}

/**
 * firebase-admin reads FIREBASE_AUTH_EMULATOR_HOST from the environment; the config module has already
 * refused an emulator host paired with a non-demo project.
 */
export function createFirebaseIdentity(options: { projectId: string; emulatorHost?: string | undefined }) {
  if (options.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = options.emulatorHost;
  const app: App = initializeApp(
    { projectId: options.projectId },
    `portal-${process.pid}-${Date.now()}-${Math.random()}`,
  );
  const auth = getAuth(app);

  const identity: IdentityProvider & { close(): Promise<void> } = {
    async verifyIdToken(token): Promise<VerifiedToken> {
      try {
        const decoded = await auth.verifyIdToken(token, true);
        return { uid: decoded.uid, email: decoded.email, expiresAtMs: decoded.exp * 1000 };
      } catch (error) {
        throw toTokenError(error);
      }
    },
    async createUser(email) {
      try {
        const user = await auth.createUser({ email, emailVerified: false });
        return { uid: user.uid, created: true };
      } catch (error) {
        if (errorCode(error) === 'auth/email-already-exists') {
          const existing = await auth.getUserByEmail(email);
          return { uid: existing.uid, created: false };
        }
        throw toProviderError(error);
      }
    },
    async createUserWithPassword(email, password) {
      try {
        const user = await auth.createUser({ email, password, emailVerified: true });
        return { uid: user.uid };
      } catch (error) {
        if (errorCode(error) === 'auth/email-already-exists') {
          const existing = await auth.getUserByEmail(email);
          return { uid: existing.uid };
        }
        throw toProviderError(error);
      }
    },
    async findUserByEmail(email) {
      try {
        const user = await auth.getUserByEmail(email);
        return { uid: user.uid };
      } catch (error) {
        if (errorCode(error) === 'auth/user-not-found') return undefined;
        throw toProviderError(error);
      }
    },
    async deleteUser(uid) {
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        if (errorCode(error) === 'auth/user-not-found') return;
        throw toProviderError(error);
      }
    },
    async revokeSessions(uid) {
      try {
        await auth.revokeRefreshTokens(uid);
      } catch (error) {
        if (errorCode(error) === 'auth/user-not-found') return;
        throw toProviderError(error);
      }
    },
    close: () => deleteApp(app),
  };
  return identity;
}
