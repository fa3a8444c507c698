/** What the API needs from the identity provider; tests wrap the real one to force failures. */
export interface VerifiedToken {
  uid: string;
  email: string | undefined;
  expiresAtMs: number;
  /** When the person entered their password for this session (the token's `auth_time`); refreshes keep it. */
  authTimeMs: number;
  /** How the account signed in ("password", "google.com", "custom", …). */
  signInProvider: string | undefined;
  /** The Identity Platform tenant the token belongs to; undefined for the project's own users. */
  tenant: string | undefined;
  /**
   * The account's address is verified: for a company sign-in, the provider vouched for it (OIDC's
   * `email_verified`, SAML always), as Firebase joins a federated sign-in to an address only then.
   */
  emailVerified: boolean;
  /** The federated provider's own id of the person (OIDC `sub`) for a sign-in through it; else undefined. */
  providerSubject: string | undefined;
}

export interface IdentityProvider {
  /** Verifies signature, audience, expiry and revocation; throws InvalidTokenError when any fails. */
  verifyIdToken(token: string): Promise<VerifiedToken>;
  /**
   * Creates an account without a password (the user sets one through the reset mail), its address marked
   * verified: the administrator listed it, and a company sign-in must join it without dropping a password. An account the portal
   * made earlier for the address is answered as it is (`created: false`: not the caller's to delete on a
   * rollback). Any other account with the address throws ForeignAccountError and is left alone: deleting
   * it is the caller's decision, to be audited first (user-admin.ts).
   */
  createUser(email: string): Promise<{ uid: string; created: boolean }>;
  /**
   * `createUser` for many addresses in a few calls (a bulk add), where the provider has a batch import: an
   * address answers its account as `createUser` would, or the error it got. One that could not be decided in
   * the batch (its account appeared meanwhile) is left out, for `createUser`. Throws when the provider is away.
   */
  createUsers?(emails: readonly string[]): Promise<Map<string, { uid: string; created: boolean } | Error>>;
  findUserByEmail(email: string): Promise<{ uid: string } | undefined>;
  /** Deletes the account; deleting one that is already gone is not an error. */
  deleteUser(uid: string): Promise<void>;
  /** Invalidates refresh tokens so existing sessions end. */
  revokeSessions(uid: string): Promise<void>;
  /** Whether the account can sign in with a password; false for an account that is gone. */
  hasPassword(uid: string): Promise<boolean>;
  /**
   * Marks the account's address verified, so a company sign-in with it joins the account and keeps its
   * password (Firebase drops the password of an account whose address is unverified).
   */
  markEmailVerified(uid: string): Promise<void>;
}

export class InvalidTokenError extends Error {
  /** `revoked`: the account's sessions were ended; `gone`: the account was disabled or deleted. */
  readonly reason: 'expired' | 'revoked' | 'gone' | 'invalid';

  constructor(reason: 'expired' | 'revoked' | 'gone' | 'invalid') {
    super(`ID token ${reason}`);
    this.reason = reason;
  }
}

export class IdentityProviderUnavailableError extends Error {}

/** The address already has a sign-in account the portal did not make (a self sign-up, another app's user). */
export class ForeignAccountError extends Error {
  readonly uid: string;

  constructor(uid: string) {
    super(`An account the portal did not make holds this address (uid ${uid})`);
    this.uid = uid;
  }
}
