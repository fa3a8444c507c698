import type { AuthClient, AuthUser, CompanySignInRefused } from '@/lib/auth';

interface Account {
  uid: string;
  password?: string;
}

/** An identity provider at the edge of component tests: accounts in memory, errors shaped like Firebase's. */
export function createFakeAuthClient(
  options: { signedInAs?: string | null; accounts?: Record<string, Account>; settle?: boolean } = {},
) {
  const accounts = options.accounts ?? {};
  const listeners = new Set<(user: AuthUser | null) => void>();
  let current: AuthUser | null = options.signedInAs
    ? { uid: accounts[options.signedInAs]?.uid ?? 'uid-1', email: options.signedInAs }
    : null;
  const settled = options.settle ?? true;

  const emit = () => listeners.forEach((listener) => listener(current));
  const providerError = (code: string) => Object.assign(new Error(`Firebase: Error (${code}).`), { code });

  const client: AuthClient & {
    calls: string[];
    resets: { email: string; continueUrl: string }[];
    failNextReset?: Error;
    failNextSignIn?: Error;
    /** Who the provider's pop-up signs in; unset: the person closed it. */
    providerAccount?: AuthUser;
    /** The portal's refusal of the next company sign-in, as the real client's gate raises it. */
    refuseNextProviderSignIn?: CompanySignInRefused;
    /** The portal's refusal of the next link, with its sentence. */
    failNextLink?: Error;
    tokenRequests: boolean[];
  } = {
    calls: [],
    resets: [],
    tokenRequests: [],
    onChange(listener) {
      listeners.add(listener);
      // Reported at once (inside React's act); `settle: false` keeps the state unknown instead.
      if (settled) listener(current);
      return () => listeners.delete(listener);
    },
    async signIn(email, password) {
      client.calls.push(`signIn:${email}`);
      if (client.failNextSignIn) {
        const error = client.failNextSignIn;
        client.failNextSignIn = undefined;
        throw error;
      }
      const account = accounts[email];
      if (!account || account.password !== password) throw providerError('auth/invalid-credential');
      current = { uid: account.uid, email };
      emit();
    },
    async signInWithProvider(providerId) {
      client.calls.push(`signInWithProvider:${providerId}`);
      if (client.failNextSignIn) {
        const error = client.failNextSignIn;
        client.failNextSignIn = undefined;
        throw error;
      }
      if (!client.providerAccount) throw providerError('auth/popup-closed-by-user');
      if (client.refuseNextProviderSignIn) {
        const refusal = client.refuseNextProviderSignIn;
        client.refuseNextProviderSignIn = undefined;
        throw refusal;
      }
      current = client.providerAccount;
      emit();
    },
    async signInAndLinkProvider(email, password, companyIdToken) {
      client.calls.push(`signInAndLinkProvider:${email}:${companyIdToken}`);
      const account = accounts[email];
      if (!account || account.password !== password) throw providerError('auth/invalid-credential');
      if (client.failNextLink) {
        const error = client.failNextLink;
        client.failNextLink = undefined;
        throw error;
      }
      current = { uid: account.uid, email };
      emit();
    },
    async prepareProviderSignIn() {
      client.calls.push('prepareProviderSignIn');
    },
    async signOut() {
      client.calls.push('signOut');
      current = null;
      emit();
    },
    async sendPasswordReset(email, continueUrl) {
      client.calls.push(`reset:${email}`);
      if (client.failNextReset) {
        const error = client.failNextReset;
        client.failNextReset = undefined;
        throw error;
      }
      client.resets.push({ email, continueUrl });
    },
    async confirmPassword(password) {
      client.calls.push('confirmPassword');
      const account = current ? accounts[current.email] : undefined;
      if (!account || account.password !== password) throw providerError('auth/invalid-credential');
    },
    async getIdToken(forceRefresh = false) {
      client.tokenRequests.push(forceRefresh);
      return current ? `token-of-${current.email}${forceRefresh ? '-refreshed' : ''}` : null;
    },
  };
  return client;
}

export type FakeAuthClient = ReturnType<typeof createFakeAuthClient>;
