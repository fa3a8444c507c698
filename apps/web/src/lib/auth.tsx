import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { forgetBeforeLogin, forgetUser, storeUser } from './storage';

export interface AuthUser {
  uid: string;
  email: string;
}

/** The identity provider as the app uses it; Firebase in production, a fake at the edge of unit tests. */
export interface AuthClient {
  onChange(listener: (user: AuthUser | null) => void): () => void;
  signIn(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  sendPasswordReset(email: string, continueUrl: string): Promise<void>;
  /** A valid ID token; `forceRefresh` after the API answered 401 for an expired one. */
  getIdToken(forceRefresh?: boolean): Promise<string | null>;
}

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'signed-in'; user: AuthUser }
  /** `byUser` only until /login has been shown after the user's own Sign Out (see `settleSignOut`). */
  | { status: 'signed-out'; user: null; byUser: boolean };

interface AuthContextValue {
  state: AuthState;
  client: AuthClient;
  signOut(): Promise<void>;
  /** /login calls this once shown: later visits to private routes carry their location again. */
  settleSignOut(): void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ client, children }: { client: AuthClient; children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'loading', user: null });

  useEffect(
    () =>
      client.onChange((user) => {
        if (user) {
          storeUser(user.uid);
          // User timings (performance.mark) let bench:frontend say where a signed-in link's time goes.
          performance.mark('portal:signed-in');
          setState({ status: 'signed-in', user });
        } else {
          forgetUser();
          setState((previous) => ({
            status: 'signed-out',
            user: null,
            byUser: previous.status === 'signed-out' && previous.byUser,
          }));
        }
      }),
    [client],
  );

  const signOut = useCallback(async () => {
    forgetUser();
    forgetBeforeLogin();
    // Marked as the user's own choice so the route guard sends them to /login without remembering the page.
    setState({ status: 'signed-out', user: null, byUser: true });
    await client.signOut();
  }, [client]);

  const settleSignOut = useCallback(
    () =>
      setState((previous) =>
        previous.status === 'signed-out' && previous.byUser ? { ...previous, byUser: false } : previous,
      ),
    [],
  );

  const value = useMemo(() => ({ state, client, signOut, settleSignOut }), [state, client, signOut, settleSignOut]);
  return <AuthContext value={value}>{children}</AuthContext>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}

/** The signed-in user; only for components rendered behind the private-route guard. */
export function useCurrentUser(): AuthUser {
  const { state } = useAuth();
  if (state.status !== 'signed-in') throw new Error('useCurrentUser needs a signed-in user');
  return state.user;
}
