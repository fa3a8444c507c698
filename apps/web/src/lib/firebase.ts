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

/** One Firebase Auth instance with one persistence, so a mailed link opens already signed in. */
export function createFirebaseAuthClient(config: RuntimeConfig): AuthClient {
  const app = initializeApp(config.firebase);
  const auth = initializeAuth(app, { persistence: browserLocalPersistence });
  if (config.authEmulatorUrl) connectAuthEmulator(auth, config.authEmulatorUrl, { disableWarnings: true });

  return {
    onChange: (listener) =>
      onAuthStateChanged(auth, (user) => listener(user ? { uid: user.uid, email: user.email ?? '' } : null)),
    signIn: async (email, password) => {
      await signInWithEmailAndPassword(auth, email, password);
    },
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
