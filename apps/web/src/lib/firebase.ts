import type { RuntimeConfig } from '@portal/contract';
import { initializeApp } from 'firebase/app';
import {
  beforeAuthStateChanged,
  browserLocalPersistence,
  connectAuthEmulator,
  EmailAuthProvider,
  initializeAuth,
  onAuthStateChanged,
  reauthenticateWithCredential,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  type User,
} from 'firebase/auth';
import { CompanySignInRefused, type AuthClient } from './auth';
import type * as FirebaseSsoModule from './firebase-sso';

/** The single sign-on chunk, loaded beside this one only when the deployment has a provider. */
type FirebaseSso = typeof FirebaseSsoModule;

/** One Firebase Auth instance with one persistence, so a mailed link opens already signed in. */
export function createFirebaseAuthClient(config: RuntimeConfig, sso?: FirebaseSso): AuthClient {
  // The pop-up of single sign-on needs an auth domain even on the emulator, which serves its pages itself.
  const app = initializeApp(
    config.sso && !config.firebase.authDomain
      ? { ...config.firebase, authDomain: `${config.firebase.projectId}.firebaseapp.com` }
      : config.firebase,
  );
  // With the resolver given here, Firebase readies the pop-up's helper frame at once, not on the click:
  // a pop-up opened seconds after the click would be blocked as unasked for.
  const auth = initializeAuth(app, {
    persistence: browserLocalPersistence,
    ...(sso ? { popupRedirectResolver: sso.popupRedirectResolver } : {}),
  });
  if (config.authEmulatorUrl) connectAuthEmulator(auth, config.authEmulatorUrl, { disableWarnings: true });

  /**
   * Run before a sign-in becomes the app's (Firebase's beforeAuthStateChanged): single sign-on asks the
   * portal first, so a refused company sign-in never counts as signed in and the login screen can say why.
   * A gate that throws keeps the person signed out; the sign-in call then rejects.
   */
  let gate: ((user: User) => Promise<void>) | undefined;
  beforeAuthStateChanged(auth, async (user) => {
    if (user && gate) await gate(user);
  });
  async function throughGate(check: (user: User) => Promise<void>, signIn: () => Promise<void>) {
    let failure: unknown;
    gate = async (user) => {
      try {
        await check(user);
      } catch (error) {
        failure = error;
        throw error;
      }
    };
    try {
      await signIn();
    } catch (error) {
      // Firebase wraps the gate's error (auth/login-blocked): the gate's own is what the screen shows.
      throw failure ?? error;
    } finally {
      gate = undefined;
    }
  }

  return {
    onChange: (listener) =>
      onAuthStateChanged(auth, (user) => listener(user ? { uid: user.uid, email: user.email ?? '' } : null)),
    signIn: async (email, password) => {
      await signInWithEmailAndPassword(auth, email, password);
    },
    signInWithProvider: async (providerId) => {
      if (!sso) throw new Error('Single sign-on is not configured');
      await throughGate(
        async (user) => {
          const refusal = await sso.portalRefusalOf(config.apiBaseUrl, user);
          if (refusal) {
            throw new CompanySignInRefused(refusal.message, {
              linkRequired: refusal.code === 'sso-link-required',
              companyIdToken: refusal.idToken,
              email: user.email ?? '',
            });
          }
        },
        () => sso.signInWithSso(auth, providerId),
      );
    },
    signInAndLinkProvider: async (email, password, companyIdToken) => {
      if (!sso) throw new Error('Single sign-on is not configured');
      await throughGate(
        (user) => sso.linkCompanySignIn(config.apiBaseUrl, user, companyIdToken),
        async () => {
          await signInWithEmailAndPassword(auth, email, password);
        },
      );
    },
    prepareProviderSignIn: async () => {},
    signOut: () => signOut(auth),
    sendPasswordReset: (email, continueUrl) => sendPasswordResetEmail(auth, email, { url: continueUrl }),
    getIdToken: async (forceRefresh) => (auth.currentUser ? auth.currentUser.getIdToken(forceRefresh) : null),
    confirmPassword: async (password) => {
      const user = auth.currentUser;
      if (!user?.email) throw new Error('Nobody is signed in');
      await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email, password));
    },
  };
}
