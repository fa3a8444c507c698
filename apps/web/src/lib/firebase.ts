import type { RuntimeConfig } from '@portal/contract';
import { initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  connectAuthEmulator,
  EmailAuthProvider,
  initializeAuth,
  onAuthStateChanged,
  reauthenticateWithCredential,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
} from 'firebase/auth';
import type { AuthClient } from './auth';
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

  return {
    onChange: (listener) =>
      onAuthStateChanged(auth, (user) => listener(user ? { uid: user.uid, email: user.email ?? '' } : null)),
    signIn: async (email, password) => {
      await signInWithEmailAndPassword(auth, email, password);
    },
    signInWithProvider: async (providerId) => {
      if (!sso) throw new Error('Single sign-on is not configured');
      await sso.signInWithSso(auth, providerId);
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
