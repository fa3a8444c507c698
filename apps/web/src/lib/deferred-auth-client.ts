import type { RuntimeConfig } from '@portal/contract';
import type { AuthClient, AuthUser } from './auth';
import { STORED_USER_KEY_PREFIX } from './first-load-plan';

type Listener = (user: AuthUser | null) => void;

/**
 * Where Firebase Auth keeps a signed-in user with `browserLocalPersistence` (lib/firebase.ts): without
 * this entry Firebase starts signed out, so the login form can paint before the SDK has loaded.
 */
export const firebaseUserKey = (config: RuntimeConfig) =>
  `${STORED_USER_KEY_PREFIX}${config.firebase.apiKey}:[DEFAULT]`;

/** Before the configuration (and so the API key) is known: is anyone of any project signed in here? */
export function mayBeSignedIn(storage: Pick<Storage, 'length' | 'key'>): boolean {
  for (let index = 0; index < storage.length; index++) {
    if (storage.key(index)?.startsWith(STORED_USER_KEY_PREFIX)) return true;
  }
  return false;
}

/**
 * The Firebase client, loaded only when needed: at once when a user may be signed in (the spec's
 * "Loading..." stays until Firebase says who), otherwise on the first sign-in or password reset.
 * The signed-out login page thus paints without downloading or starting the SDK.
 */
export function createDeferredAuthClient(
  config: RuntimeConfig,
  load: () => Promise<AuthClient> = async () => {
    const [{ createFirebaseAuthClient }, sso] = await Promise.all([
      import('./firebase'),
      config.sso ? import('./firebase-sso') : undefined,
    ]);
    return createFirebaseAuthClient(config, sso);
  },
  storage: Pick<Storage, 'getItem'> = localStorage,
): AuthClient {
  const subscriptions = new Map<Listener, (() => void) | undefined>();
  let loaded: AuthClient | undefined;
  let loading: Promise<AuthClient> | undefined;
  const client = () =>
    (loading ??= load().then((real) => {
      loaded = real;
      for (const listener of subscriptions.keys()) subscriptions.set(listener, real.onChange(listener));
      return real;
    }));
  const maybeSignedIn = storage.getItem(firebaseUserKey(config)) !== null;
  if (maybeSignedIn) void client();

  return {
    onChange(listener) {
      subscriptions.set(listener, loaded?.onChange(listener));
      if (!loaded && !maybeSignedIn) listener(null);
      return () => {
        subscriptions.get(listener)?.();
        subscriptions.delete(listener);
      };
    },
    signIn: async (email, password) => (await client()).signIn(email, password),
    // Straight on when loaded: browsers open a pop-up only within the gesture (the click) that asked for it.
    signInWithProvider: (providerId) =>
      loaded ? loaded.signInWithProvider(providerId) : client().then((real) => real.signInWithProvider(providerId)),
    signInAndLinkProvider: async (email, password, companyIdToken) =>
      (await client()).signInAndLinkProvider(email, password, companyIdToken),
    prepareProviderSignIn: async () => (await client()).prepareProviderSignIn(),
    signOut: async () => (await client()).signOut(),
    sendPasswordReset: async (email, continueUrl) => (await client()).sendPasswordReset(email, continueUrl),
    // Never loaded means never signed in on this page: there is no token to give.
    getIdToken: async (forceRefresh) => (loading ? (await client()).getIdToken(forceRefresh) : null),
    confirmPassword: async (password) => (await client()).confirmPassword(password),
  };
}
