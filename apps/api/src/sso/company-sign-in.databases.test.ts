import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEvent } from '../audit/repository.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { DomainError } from '../domain-error.ts';
import { IdentityProviderUnavailableError, type VerifiedToken } from '../identity/identity-provider.ts';
import type { UserRow } from '../users/repository.ts';
import { createCompanySignIn, LINK_PASSWORD_MAX_AGE_MS } from './company-sign-in.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const EMAIL = 'staff@acme.com';

const companyToken = (changes: Partial<VerifiedToken> = {}): VerifiedToken => ({
  uid: 'portal-1',
  email: EMAIL,
  expiresAtMs: NOW + 3_600_000,
  authTimeMs: NOW,
  signInProvider: 'oidc.acme',
  tenant: undefined,
  emailVerified: true,
  providerSubject: 'sub-1',
  ...changes,
});

/** The company sign-in over an in-memory row, recording what it audits; `bindRace` makes another link win. */
function setUp(options: { hasPassword?: boolean | Error; bindRace?: string } = {}) {
  const row = { email: EMAIL, firebaseUid: 'portal-1', ssoSubject: null } as UserRow;
  const audited: AuditEvent[] = [];
  const audit = {
    queued: (event: AuditEvent) => void audited.push(event),
    bestEffort: async (event: AuditEvent) => void audited.push(event),
  } as unknown as AuditTrail;
  const signIn = createCompanySignIn({
    sso: { providerId: 'oidc.acme', label: 'Acme' },
    allowedDomains: ['acme.com'],
    users: {
      async bindSsoSubject(_email, _uid, subject) {
        if (options.bindRace) {
          row.ssoSubject = options.bindRace;
          return undefined;
        }
        row.ssoSubject = subject;
        return row;
      },
      findByEmail: async () => row,
    },
    identity: {
      async hasPassword() {
        if (options.hasPassword instanceof Error) throw options.hasPassword;
        return options.hasPassword ?? false;
      },
      markEmailVerified: async () => {},
    },
    audit,
    log: { warn: () => {} },
  });
  return { signIn, row, audited };
}

const passwordSignIn = (authTimeMs: number) => ({
  uid: 'portal-1',
  email: EMAIL,
  authTimeMs,
  signInProvider: 'password',
});

describe('company sign-in', () => {
  it('matches the domain as a whole, not as a suffix', () => {
    const { signIn } = setUp();
    for (const email of ['staff@notacme.com', 'staff@acme.com.evil.org', 'staff@sub.acme.com']) {
      assert.throws(
        () => signIn.checkAddress(companyToken({ email })),
        (error: unknown) => error instanceof DomainError && error.reason === 'sso: address outside the company domains',
        email,
      );
    }
    assert.doesNotThrow(() => signIn.checkAddress(companyToken({ email: 'Staff@ACME.com' })));
  });

  it('refuses a link whose password was typed more than ten minutes ago', async () => {
    const { signIn, row, audited } = setUp({ hasPassword: true });
    await assert.rejects(
      signIn.linkWithPassword({
        passwordSignIn: passwordSignIn(NOW - LINK_PASSWORD_MAX_AGE_MS - 1000),
        company: companyToken(),
        nowMs: NOW,
      }),
      (error: unknown) => error instanceof DomainError && error.kind === 'forbidden',
    );
    assert.equal(row.ssoSubject, null);
    assert.equal(audited[0]?.action, 'sso.link-refused');
    await signIn.linkWithPassword({
      passwordSignIn: passwordSignIn(NOW - 60_000),
      company: companyToken(),
      nowMs: NOW,
    });
    assert.equal(row.ssoSubject, 'sub-1');
  });

  it('checks a first sign-in that lost the race to bind against the identity that won it', async () => {
    const { signIn, row } = setUp({ bindRace: 'sub-other' });
    await assert.rejects(
      signIn.admit(companyToken(), row),
      (error: unknown) => error instanceof DomainError && error.reason === 'sso: another identity than the linked one',
    );
  });

  it('binds nothing when the identity provider cannot say whether the account has a password', async () => {
    const { signIn, row } = setUp({ hasPassword: new IdentityProviderUnavailableError('down') });
    await assert.rejects(signIn.admit(companyToken(), row), IdentityProviderUnavailableError);
    assert.equal(row.ssoSubject, null);
  });
});
