/**
 * The Auth emulator's REST API, called the way the web SDK calls Identity Toolkit: the one client that
 * tests, e2e, benchmarks and the demo seed use to create accounts and get real ID tokens.
 */
export interface ToolkitResponse {
  status: number;
  body: Record<string, unknown>;
}

export interface SignedIn {
  uid: string;
  idToken: string;
  /** What the web SDK keeps to get new ID tokens; revoking the account's sessions makes it useless. */
  refreshToken: string;
}

/** The error code the emulator answers with (e.g. INVALID_LOGIN_CREDENTIALS, EMAIL_EXISTS). */
export const toolkitErrorCode = (body: Record<string, unknown>): unknown =>
  (body.error as { message?: unknown } | undefined)?.message;

export function identityToolkit(emulatorUrl: string) {
  /** Any API key works against the emulator; the real REST path lives under the host as a prefix. */
  async function call(method: string, body: unknown): Promise<ToolkitResponse> {
    const response = await fetch(
      `${emulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** The answer's body, or an error naming the call, the address and the emulator's code. */
  async function succeeded(method: string, email: string, payload: unknown): Promise<Record<string, unknown>> {
    const { status, body } = await call(method, payload);
    if (status !== 200)
      throw new Error(`accounts:${method} failed for ${email}: ${String(toolkitErrorCode(body) ?? status)}`);
    return body;
  }

  const signedIn = (body: Record<string, unknown>): SignedIn => ({
    uid: String(body.localId),
    idToken: String(body.idToken),
    refreshToken: String(body.refreshToken),
  });

  const signIn = async (email: string, password: string): Promise<SignedIn> =>
    signedIn(await succeeded('signInWithPassword', email, { email, password, returnSecureToken: true }));

  return {
    call,
    /**
     * Creates the account, then signs it in for its tokens. The emulator's own sign-up tokens can be born
     * revoked: it takes the sign-in time before it sets "tokens valid since" (both in whole seconds), so a
     * second boundary between the two makes firebase-admin's revocation check refuse the first token. A
     * busy machine widens that gap; a sign-in after the account exists cannot fall before it.
     */
    async signUp(email: string, password: string): Promise<SignedIn> {
      await succeeded('signUp', email, { email, password });
      return signIn(email, password);
    },
    /**
     * Signs in through an OIDC or SAML provider as the emulator's own provider page does for the web SDK: the
     * emulator takes any `oidc.*`/`saml.*` ID and a JSON stand-in for the provider's ID token. `subject` is
     * the person's ID at the provider (stable per person); the address is asserted as verified unless
     * `emailVerified` is false (an OIDC provider's `email_verified`; SAML's NameID always counts as verified).
     */
    async signInWithProvider(
      providerId: string,
      email: string,
      subject = `subject-${email}`,
      { emailVerified = true }: { emailVerified?: boolean } = {},
    ): Promise<SignedIn> {
      const claims = JSON.stringify({
        sub: subject,
        email,
        email_verified: emailVerified,
        iss: '',
        aud: '',
        exp: 0,
        iat: 0,
      });
      const response = new URLSearchParams({ providerId, id_token: claims });
      if (providerId.startsWith('saml.'))
        response.set('SAMLResponse', JSON.stringify({ assertion: { subject: { nameId: email } } }));
      return signedIn(
        await succeeded('signInWithIdp', email, {
          requestUri: `http://localhost/?${response.toString()}`,
          returnSecureToken: true,
        }),
      );
    },
    signIn,
    /** A new ID token for a refresh token, as the web SDK asks every hour; the status says whether it may. */
    async refresh(refreshToken: string): Promise<ToolkitResponse> {
      const response = await fetch(`${emulatorUrl}/securetoken.googleapis.com/v1/token?key=demo-api-key`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    /**
     * Gives an existing account a password, as its owner would through the reset mail, with the emulator's
     * administrator rights ("Bearer owner"): for tests that need an account the portal created to sign in.
     */
    async setPassword(projectId: string, email: string, password: string) {
      const admin = async (method: string, body: unknown) => {
        const response = await fetch(
          `${emulatorUrl}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:${method}`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
            body: JSON.stringify(body),
          },
        );
        const answer = (await response.json()) as Record<string, unknown>;
        if (!response.ok) throw new Error(`accounts:${method} failed for ${email}: ${JSON.stringify(answer)}`);
        return answer;
      };
      const { users } = (await admin('lookup', { email: [email] })) as { users?: { localId: string }[] };
      const localId = users?.[0]?.localId;
      if (!localId) throw new Error(`no emulator account for ${email}`);
      await admin('update', { localId, password });
    },
    async clearAccounts(projectId: string) {
      const url = `${emulatorUrl}/emulator/v1/projects/${projectId}/accounts`;
      // Idempotent, so a kept-alive connection the emulator closed meanwhile is simply retried once.
      const response = await fetch(url, { method: 'DELETE' }).catch(() => fetch(url, { method: 'DELETE' }));
      if (!response.ok) {
        throw new Error(
          `auth emulator: deleting the accounts failed (HTTP ${response.status}): ${await response.text()}`,
        );
      }
    },
  };
}

export type IdentityToolkit = ReturnType<typeof identityToolkit>;
