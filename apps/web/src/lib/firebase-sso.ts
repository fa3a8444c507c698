import {
  browserPopupRedirectResolver,
  OAuthProvider,
  SAMLAuthProvider,
  signInWithPopup,
  type Auth,
  type PopupRedirectResolver,
  type User,
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

/** What the portal answered a company sign-in with when it refused it; undefined: admitted (or not its to say). */
export interface PortalRefusal {
  message: string;
  code: unknown;
  idToken: string;
}

const FALLBACK_REFUSAL = 'Your account is not allowed to use this portal. Please contact the website administrator.';

/**
 * Asks the portal, with the spec's own account lookup, whether it admits the company sign-in of `user`
 * (decision 0087): only a 401 is a refusal. The portal not answering is not one: the pages it then opens
 * say so, as after a password sign-in.
 */
export async function portalRefusalOf(apiBaseUrl: string, user: User): Promise<PortalRefusal | undefined> {
  const idToken = await user.getIdToken();
  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl}/users/${encodeURIComponent(user.email ?? '')}`, {
      headers: { authorization: `Bearer ${idToken}` },
    });
  } catch {
    return undefined;
  }
  if (response.status !== 401) return undefined;
  const body = (await response.json().catch(() => ({}))) as { message?: unknown; code?: unknown };
  return {
    message: typeof body.message === 'string' && body.message ? body.message : FALLBACK_REFUSAL,
    code: body.code,
    idToken,
  };
}

/** Links the company sign-in to the account whose password sign-in `user` is; rejects with the portal's sentence. */
export async function linkCompanySignIn(apiBaseUrl: string, user: User, companyIdToken: string): Promise<void> {
  const response = await fetch(`${apiBaseUrl}/sso/link`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await user.getIdToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ companyIdToken }),
  });
  if (response.ok) return;
  const body = (await response.json().catch(() => ({}))) as { message?: unknown };
  throw new Error(
    typeof body.message === 'string' && body.message
      ? body.message
      : 'Your company account could not be linked. Please try again later.',
  );
}
