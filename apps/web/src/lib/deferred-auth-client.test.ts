import type { RuntimeConfig } from '@portal/contract';
import type { AuthClient, AuthUser } from './auth';
import { createDeferredAuthClient, firebaseUserKey } from './deferred-auth-client';

const config = { firebase: { apiKey: 'key-1', authDomain: '', projectId: 'demo-x' } } as unknown as RuntimeConfig;
const user: AuthUser = { uid: 'u1', email: 'user@example.com' };

/** A stand-in for the Firebase client at the edge: reports `current` to listeners, signs in on demand. */
function fakeFirebase(current: AuthUser | null) {
  const listeners = new Set<(user: AuthUser | null) => void>();
  const real: AuthClient = {
    onChange: (listener) => {
      listeners.add(listener);
      listener(current);
      return () => listeners.delete(listener);
    },
    signIn: vi.fn(async () => {
      current = user;
      for (const listener of listeners) listener(user);
    }),
    signInWithProvider: vi.fn(async () => {
      current = user;
      for (const listener of listeners) listener(user);
    }),
    signInAndLinkProvider: vi.fn(async () => {
      current = user;
      for (const listener of listeners) listener(user);
    }),
    prepareProviderSignIn: vi.fn(async () => undefined),
    signOut: vi.fn(async () => undefined),
    sendPasswordReset: vi.fn(async () => undefined),
    getIdToken: vi.fn(async () => 'token-1'),
    confirmPassword: vi.fn(async () => undefined),
  };
  return { real, load: vi.fn(async () => real) };
}

const storageWith = (entries: Record<string, string>) => ({ getItem: (key: string) => entries[key] ?? null });

describe('the deferred auth client', () => {
  it('reports signed out at once and loads nothing while no user is stored', async () => {
    const firebase = fakeFirebase(null);
    const client = createDeferredAuthClient(config, firebase.load, storageWith({}));
    const listener = vi.fn();
    client.onChange(listener);
    expect(listener).toHaveBeenCalledWith(null);
    expect(await client.getIdToken()).toBeNull();
    expect(firebase.load).not.toHaveBeenCalled();
  });

  it('loads the SDK on sign-in and passes on what it reports', async () => {
    const firebase = fakeFirebase(null);
    const client = createDeferredAuthClient(config, firebase.load, storageWith({}));
    const listener = vi.fn();
    client.onChange(listener);
    await client.signIn('user@example.com', 'secret');
    expect(firebase.real.signIn).toHaveBeenCalledWith('user@example.com', 'secret');
    expect(listener).toHaveBeenLastCalledWith(user);
    expect(await client.getIdToken(true)).toBe('token-1');
    expect(firebase.real.getIdToken).toHaveBeenCalledWith(true);
  });

  it('starts single sign-on straight away once loaded, so the pop-up opens within the click', async () => {
    const firebase = fakeFirebase(null);
    const client = createDeferredAuthClient(config, firebase.load, storageWith({}));
    client.onChange(vi.fn());
    await client.prepareProviderSignIn();
    expect(firebase.load).toHaveBeenCalledOnce();
    void client.signInWithProvider('oidc.acme');
    // Called in the same task as the click, not after an await.
    expect(firebase.real.signInWithProvider).toHaveBeenCalledWith('oidc.acme');
  });

  it('loads the SDK at once and says nothing until it answers when a user may be signed in', async () => {
    const firebase = fakeFirebase(user);
    const client = createDeferredAuthClient(config, firebase.load, storageWith({ [firebaseUserKey(config)]: '{}' }));
    expect(firebase.load).toHaveBeenCalledOnce();
    const listener = vi.fn();
    client.onChange(listener);
    expect(listener).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(listener).toHaveBeenCalledWith(user));
  });

  it('stops passing on changes once unsubscribed', async () => {
    const firebase = fakeFirebase(null);
    const client = createDeferredAuthClient(config, firebase.load, storageWith({}));
    const listener = vi.fn();
    client.onChange(listener)();
    await client.signIn('user@example.com', 'secret');
    expect(listener).not.toHaveBeenCalledWith(user);
  });
});
