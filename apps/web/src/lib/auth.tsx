import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { forgetBeforeLogin, forgetUser, storedUser, storeUser } from './storage';

export interface AuthUser {
  uid: string;
  email: string;
}

/** The identity provider as the app uses it; Firebase in production, a fake at the edge of unit tests. */
export interface AuthClient {
  onChange(listener: (user: AuthUser | null) => void): () => void;
  signIn(email: string, password: string): Promise<void>;
  /**
   * Single sign-on through the project's OIDC or SAML provider (`oidc.…`, `saml.…`), in a pop-up window
   * (decision 0068). Resolves once signed in; a pop-up the person closed rejects with auth/popup-closed-by-user.
   * The portal is asked before the app counts the person as signed in: its refusal rejects with
   * CompanySignInRefused, and nobody is signed in (decision 0087).
   */
  signInWithProvider(providerId: string): Promise<void>;
  /**
   * The spec's e-mail and password sign-in, linking the company sign-in the portal asked a password for
   * (`companyIdToken`, from CompanySignInRefused) before the app counts the person as signed in.
   */
  signInAndLinkProvider(email: string, password: string, companyIdToken: string): Promise<void>;
  /** Loads what single sign-on needs ahead of the click, so the pop-up opens within the click's gesture. */
  prepareProviderSignIn(): Promise<void>;
  signOut(): Promise<void>;
  sendPasswordReset(email: string, continueUrl: string): Promise<void>;
  /** A valid ID token; `forceRefresh` after the API answered 401 for an expired one. */
  getIdToken(forceRefresh?: boolean): Promise<string | null>;
  /**
   * Asks the identity provider to check the signed-in user's password again: the session then counts as
   * freshly signed in (a new `auth_time`), which setting up a first passkey needs.
   */
  confirmPassword(password: string): Promise<void>;
}

/**
 * The portal refused a company sign-in (another domain, an unverified address, another identity than the
 * linked one, not on the list), with its own sentence; `linkRequired`: the account has a password, which
 * links it (`companyIdToken` is the refused sign-in's token to link).
 */
export class CompanySignInRefused extends Error {
  readonly linkRequired: boolean;
  readonly companyIdToken: string;
  /** The address the company signed in, for the form the link asks for. */
  readonly email: string;

  constructor(message: string, options: { linkRequired: boolean; companyIdToken: string; email: string }) {
    super(message);
    this.name = 'CompanySignInRefused';
    this.linkRequired = options.linkRequired;
    this.companyIdToken = options.companyIdToken;
    this.email = options.email;
  }
}

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'signed-in'; user: AuthUser }
  /**
   * `byUser` only until /login has been shown after the user's own Sign Out (see `settleSignOut`);
   * `notice` says why the app signed the user out itself (the server ended the session).
   */
  | { status: 'signed-out'; user: null; byUser: boolean; notice?: string };

interface AuthContextValue {
  state: AuthState;
  client: AuthClient;
  signOut(): Promise<void>;
  /**
   * The server ended the session (its maximum length): signed out here too, with `notice` for the login
   * page. Unlike Sign Out, the page the user was on is kept, so signing in again goes back to it.
   */
  endSession(notice: string | undefined): void;
  /** /login calls this once shown: later visits to private routes carry their location again. */
  settleSignOut(): void;
}

export const SESSION_ENDED_NOTICE = 'Your session has ended. Please sign in again.';

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
          // A sign-in this browser kept that the identity provider no longer honours (its sessions were
          // ended, its account deleted): said on the login screen, as when the portal ends it.
          const dropped = storedUser() !== null;
          forgetUser();
          setState((previous) =>
            previous.status === 'signed-out'
              ? { ...previous, user: null }
              : {
                  status: 'signed-out',
                  user: null,
                  byUser: false,
                  ...(dropped ? { notice: SESSION_ENDED_NOTICE } : {}),
                },
          );
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

  const endSession = useCallback(
    (notice: string | undefined) => {
      setState({ status: 'signed-out', user: null, byUser: false, notice: notice ?? SESSION_ENDED_NOTICE });
      void client.signOut();
    },
    [client],
  );

  const settleSignOut = useCallback(
    () =>
      setState((previous) =>
        previous.status === 'signed-out' && previous.byUser ? { ...previous, byUser: false } : previous,
      ),
    [],
  );

  const value = useMemo(
    () => ({ state, client, signOut, endSession, settleSignOut }),
    [state, client, signOut, endSession, settleSignOut],
  );
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
