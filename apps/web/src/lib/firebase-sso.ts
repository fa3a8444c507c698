import {
  browserPopupRedirectResolver,
  OAuthProvider,
  SAMLAuthProvider,
  signInWithPopup,
  type Auth,
  type PopupRedirectResolver,
} from 'firebase/auth';

/**
 * Single sign-on in a pop-up (decision 0068), kept out of the password sign-in's chunk: only a deployment
 * with SSO_PROVIDER_ID loads it.
 */
export const popupRedirectResolver: PopupRedirectResolver = browserPopupRedirectResolver;

export async function signInWithSso(auth: Auth, providerId: string): Promise<void> {
  const provider = providerId.startsWith('saml.') ? new SAMLAuthProvider(providerId) : new OAuthProvider(providerId);
  await signInWithPopup(auth, provider, popupRedirectResolver);
}
