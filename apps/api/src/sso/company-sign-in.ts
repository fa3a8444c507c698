import { createHash } from 'node:crypto';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { DomainError } from '../domain-error.ts';
import type { IdentityProvider, VerifiedToken } from '../identity/identity-provider.ts';
import type { UserRow, UsersRepository } from '../users/repository.ts';
import {
  linkNeedsPasswordMessage,
  linkProofTooOldMessage,
  otherDomainMessage,
  otherSubjectMessage,
  unverifiedAddressMessage,
} from './messages.ts';

/** How recently the password must have been typed for it to prove the account is the person's own. */
export const LINK_PASSWORD_MAX_AGE_MS = 10 * 60_000;

/** The part of an address after its last "@", as the allowed domains are written. */
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** The provider's id of the person is theirs, not the audit's to keep: a fingerprint tells two apart. */
const fingerprint = (subject: string) =>
  `subject sha256:${createHash('sha256').update(subject).digest('hex').slice(0, 16)}`;

/**
 * A company sign-in admitted to one allowlist row, and nothing more (decision 0087): an address in one of
 * the company's domains that the provider vouched for, and the provider's id of the person bound to the row
 * at the first link and required after. An account with a password links only with that password typed in
 * the same browser (`linkWithPassword`), so no company sign-in replaces or removes it.
 */
export function createCompanySignIn(deps: {
  sso: { providerId: string; label: string };
  /** Empty: any domain (refused at start-up in production). */
  allowedDomains: readonly string[];
  users: Pick<UsersRepository, 'bindSsoSubject' | 'findByEmail'>;
  identity: Pick<IdentityProvider, 'hasPassword' | 'markEmailVerified'>;
  audit: AuditTrail;
  log: { warn(details: object, message: string): void };
}) {
  const { providerId, label } = deps.sso;
  const allowed = new Set(deps.allowedDomains);
  /** Accounts this process has already marked verified: a person's every request must not ask again. */
  const markedVerified = new Set<string>();

  /** Written folded per minute: a flood of refusals costs a bounded number of rows. */
  function refuse(email: string | null, reason: string, detail: string, error: DomainError): never {
    deps.audit.queued({
      actor: email,
      action: 'sso.link-refused',
      target: email,
      outcome: 'refused',
      detail: `${reason}; ${detail}`,
    });
    throw error;
  }

  /** The address: one of the company's domains, and vouched for by the provider. Before the allowlist is read. */
  function checkAddress(token: VerifiedToken) {
    const email = token.email?.toLowerCase() ?? null;
    const domain = email ? domainOf(email) : '';
    if (!email || (allowed.size > 0 && !allowed.has(domain))) {
      refuse(
        email,
        'another domain',
        `provider ${providerId}; domain ${domain || 'none'}`,
        new DomainError(
          'unauthenticated',
          otherDomainMessage(label, domain),
          'sso: address outside the company domains',
        ),
      );
    }
    if (!token.emailVerified) {
      refuse(
        email,
        'unverified address',
        `provider ${providerId}`,
        new DomainError(
          'unauthenticated',
          unverifiedAddressMessage(label),
          'sso: address not verified by the provider',
        ),
      );
    }
    if (!token.providerSubject) {
      refuse(
        email,
        'no subject',
        `provider ${providerId}`,
        new DomainError('unauthenticated', unverifiedAddressMessage(label), 'sso: the provider named nobody'),
      );
    }
    return { email, subject: token.providerSubject };
  }

  function checkSubject(row: UserRow, subject: string) {
    if (row.ssoSubject !== null && row.ssoSubject !== subject) {
      refuse(
        row.email,
        'another subject',
        `provider ${providerId}; ${fingerprint(subject)}; linked ${fingerprint(row.ssoSubject)}`,
        new DomainError('unauthenticated', otherSubjectMessage(label), 'sso: another identity than the linked one'),
      );
    }
  }

  async function bind(row: UserRow, subject: string, how: string) {
    const bound = await deps.users.bindSsoSubject(row.email, row.firebaseUid ?? '', subject);
    if (!bound) {
      // Another first sign-in bound the row meanwhile: this one is checked against it like any later one.
      const now = await deps.users.findByEmail(row.email);
      if (now?.ssoSubject) checkSubject(now, subject);
      return;
    }
    await deps.audit.bestEffort({
      actor: row.email,
      action: 'sso.link',
      target: row.email,
      outcome: 'ok',
      detail: `provider ${providerId}; ${fingerprint(subject)}; ${how}`,
    });
  }

  return {
    providerId,

    /**
     * A company sign-in of an allowlisted row whose account the token is: checked against the bound subject,
     * or bound now when the account has no password to lose. An account with one needs its password first.
     */
    async admit(token: VerifiedToken, row: UserRow): Promise<void> {
      const { subject } = checkAddress(token);
      if (!subject) return;
      if (row.ssoSubject !== null) {
        checkSubject(row, subject);
        return;
      }
      if (await deps.identity.hasPassword(token.uid)) {
        refuse(
          row.email,
          'link needs the password',
          `provider ${providerId}; ${fingerprint(subject)}`,
          new DomainError(
            'sso-link-required',
            linkNeedsPasswordMessage(label),
            'sso: first link of an account with a password',
          ),
        );
      }
      await bind(row, subject, 'first company sign-in of an account without a password');
    },

    checkAddress,

    /**
     * The person typed their password in this browser moments ago (`passwordSignIn`) and holds the company
     * sign-in of the same account (`company`): the company identity is linked to the row, the password kept.
     */
    async linkWithPassword(input: {
      passwordSignIn: { uid: string; email: string; authTimeMs: number; signInProvider: string | undefined };
      company: VerifiedToken;
      nowMs: number;
    }): Promise<void> {
      const { passwordSignIn, company } = input;
      if (
        passwordSignIn.signInProvider !== 'password' ||
        input.nowMs - passwordSignIn.authTimeMs > LINK_PASSWORD_MAX_AGE_MS
      ) {
        refuse(
          passwordSignIn.email,
          'stale password proof',
          `provider ${providerId}`,
          new DomainError('forbidden', linkProofTooOldMessage(label), 'sso link: no fresh password sign-in'),
        );
      }
      if (company.signInProvider !== providerId || company.tenant !== undefined || company.uid !== passwordSignIn.uid) {
        refuse(
          passwordSignIn.email,
          'another account',
          `provider ${company.signInProvider ?? 'none'}`,
          new DomainError('invalid', otherSubjectMessage(label), 'sso link: the company sign-in is of another account'),
        );
      }
      const { subject } = checkAddress(company);
      const row = await deps.users.findByEmail(passwordSignIn.email);
      if (!row || !subject || row.firebaseUid !== passwordSignIn.uid) {
        throw new DomainError('unauthenticated', otherSubjectMessage(label), 'sso link: no row of this account');
      }
      if (row.ssoSubject !== null) {
        checkSubject(row, subject);
        return;
      }
      await bind(row, subject, 'linked with the password');
    },

    /**
     * A password sign-in the portal accepted: the account's address is marked verified (the administrator
     * listed it, and its password came through a mail to it), so the company sign-in joins it without
     * Firebase dropping the password, as it does for an account created before addresses were marked.
     */
    rememberVerified(token: VerifiedToken) {
      if (token.emailVerified || token.signInProvider !== 'password' || markedVerified.has(token.uid)) return;
      markedVerified.add(token.uid);
      deps.identity.markEmailVerified(token.uid).catch((error: unknown) => {
        markedVerified.delete(token.uid);
        deps.log.warn({ err: error }, 'could not mark a sign-in account verified');
      });
    },
  };
}

export type CompanySignIn = ReturnType<typeof createCompanySignIn>;
