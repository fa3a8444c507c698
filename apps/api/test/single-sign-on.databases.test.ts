import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/test-app.ts';
import { emulator, signIn, signUp } from './helpers/tokens.ts';

type TestApp = ReturnType<typeof useTestApp>;

const STAFF = 'staff@example.com';
const PASSWORD = 'staffs-own-password-1';

/** A row and its account as the admin screen makes them: the account has no password until its owner sets one. */
async function listedByThePortal(t: TestApp, email: string) {
  const { uid } = await t.app.domain.identity.createUser(email);
  await t.app.domain.users.insert({ email, registered: true, createdBy: 'test', firebaseUid: uid });
  return uid;
}

/** The owner sets a password through the reset mail, as the spec's sign-in needs. */
const setPassword = (t: TestApp, email: string) =>
  emulator().setPassword(t.app.domain.config.firebase.projectId, email, PASSWORD);

async function auditEntries(t: TestApp, action: string) {
  await t.app.domain.auditWriter.flush();
  return (await t.app.domain.audit.list({ limit: 100, offset: 0 })).filter((entry) => entry.action === action);
}

/**
 * Single sign-on admits a company sign-in to one row (decisions 0068, 0087): the address on the list, in the
 * company's domains and verified by the provider, the row's own account, and the provider's id of the person
 * bound at the first link and required after; an account with a password links only with that password.
 * Tokens come from the Auth emulator's signInWithIdp, as the web SDK's pop-up ends.
 */
for (const providerId of ['oidc.acme', 'saml.acme']) {
  describe(`single sign-on through ${providerId}`, () => {
    const t = useTestApp({
      env: { SSO_PROVIDER_ID: providerId, SSO_BUTTON_LABEL: 'Acme', SSO_ALLOWED_DOMAINS: 'example.com' },
    });
    const lookup = (idToken: string, email = STAFF) =>
      t.app.inject({ url: `/api/users/${email}`, headers: t.bearer(idToken) });
    const company = (email = STAFF, subject?: string) => emulator().signInWithProvider(providerId, email, subject);

    it('serves the provider and its label to the web app', async () => {
      const response = await t.app.inject({ url: '/config.json' });
      assert.deepEqual(response.json().sso, { providerId, label: 'Acme' });
      // The pop-up talks back to the page, and Firebase's helper frame may load.
      assert.equal(response.headers['cross-origin-opener-policy'], 'same-origin-allow-popups');
      assert.match(String(response.headers['content-security-policy']), /frame-src [^;]*http:\/\/127\.0\.0\.1:\d+/);
    });

    it('lets a person on the list in, binding their company identity to the row at the first sign-in, audited', async () => {
      const uid = await listedByThePortal(t, STAFF);
      const signedIn = await company();
      assert.equal(signedIn.uid, uid, 'the same account, so the row binds it');
      const response = await lookup(signedIn.idToken);
      assert.equal(response.statusCode, 200, response.body);
      const row = await t.app.domain.users.findByEmail(STAFF);
      assert.equal(row?.activated, true);
      assert.equal(row?.ssoSubject, `subject-${STAFF}`);
      const [linked] = await auditEntries(t, 'sso.link');
      assert.equal(linked?.target, STAFF);
      assert.equal(linked?.outcome, 'ok');
      assert.match(String(linked?.detail), new RegExp(`provider ${providerId}; subject sha256:[0-9a-f]{16}; first`));
      assert.doesNotMatch(String(linked?.detail), /subject-staff/, 'a fingerprint, not the id itself');
      // Later sign-ins of the same person pass the check and write no second link.
      assert.equal((await lookup((await company()).idToken)).statusCode, 200);
      assert.equal((await auditEntries(t, 'sso.link')).length, 1);
    });

    it('refuses another identity the provider vouches for with the same address, once a first one is linked, audited', async () => {
      await listedByThePortal(t, STAFF);
      assert.equal((await lookup((await company()).idToken)).statusCode, 200);
      const impostor = await company(STAFF, 'someone-else-at-the-provider');
      const refused = await lookup(impostor.idToken);
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().code, 'unauthenticated');
      assert.equal(
        refused.json().message,
        'This Acme account is not the one linked to your portal account. Please sign in with the Acme account you used before, or ask the website administrator to reset the link.',
      );
      assert.equal((await t.app.domain.users.findByEmail(STAFF))?.ssoSubject, `subject-${STAFF}`, 'still bound');
      const [entry] = await auditEntries(t, 'sso.link-refused');
      assert.equal(entry?.outcome, 'refused');
      assert.equal(entry?.target, STAFF);
      assert.match(String(entry?.detail), /^another subject; /);
      // The person the row is bound to still gets in.
      assert.equal((await lookup((await company()).idToken)).statusCode, 200);
    });

    it('refuses an address outside the company domains, even on the list, audited', async () => {
      const outside = 'staff@elsewhere.org';
      await listedByThePortal(t, outside);
      const response = await lookup((await company(outside)).idToken, outside);
      assert.equal(response.statusCode, 401);
      assert.equal(
        response.json().message,
        "Your Acme account's address (@elsewhere.org) is not one this portal accepts for Acme sign-in. Please sign in with your Acme work account, or with your email and password.",
      );
      assert.equal((await t.app.domain.users.findByEmail(outside))?.ssoSubject, null);
      const [entry] = await auditEntries(t, 'sso.link-refused');
      assert.match(String(entry?.detail), /^another domain; provider .*; domain elsewhere\.org$/);
    });

    it('keeps the password of an account that has one: the first company sign-in asks for it, and both work after the link', async () => {
      await listedByThePortal(t, STAFF);
      await setPassword(t, STAFF);
      const first = await company();
      const refused = await lookup(first.idToken);
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().code, 'sso-link-required');
      assert.match(refused.json().message, /^Your portal account has a password\. To link your Acme account/);
      assert.match(String((await auditEntries(t, 'sso.link-refused'))[0]?.detail), /^link needs the password; /);
      assert.equal((await t.app.domain.users.findByEmail(STAFF))?.ssoSubject, null, 'not linked');

      // The spec's e-mail and password sign-in still works, and proves the account is theirs.
      const password = await signIn(STAFF, PASSWORD);
      assert.equal((await lookup(password.idToken)).statusCode, 200);
      const linked = await t.app.inject({
        method: 'POST',
        url: '/api/sso/link',
        headers: t.bearer(password.idToken),
        payload: { companyIdToken: first.idToken },
      });
      assert.equal(linked.statusCode, 200, linked.body);
      assert.deepEqual(linked.json(), { email: STAFF, linked: true });
      assert.match(String((await auditEntries(t, 'sso.link'))[0]?.detail), /; linked with the password$/);

      assert.equal((await lookup((await company()).idToken)).statusCode, 200, 'the company sign-in now works');
      assert.equal((await lookup((await signIn(STAFF, PASSWORD)).idToken)).statusCode, 200, 'and so does the password');
    });

    it('links only with a password sign-in, and only the company sign-in of the same account', async () => {
      await listedByThePortal(t, STAFF);
      await setPassword(t, STAFF);
      const first = await company();
      const password = await signIn(STAFF, PASSWORD);
      const link = (idToken: string, companyIdToken: string) =>
        t.app.inject({ method: 'POST', url: '/api/sso/link', headers: t.bearer(idToken), payload: { companyIdToken } });
      // A company sign-in is no proof of the password.
      assert.equal((await link(first.idToken, first.idToken)).statusCode, 401);
      await listedByThePortal(t, 'colleague@example.com');
      const colleague = await company('colleague@example.com');
      assert.equal((await link(password.idToken, colleague.idToken)).statusCode, 400);
      assert.equal((await t.app.domain.users.findByEmail(STAFF))?.ssoSubject, null);
    });

    it('refuses a person the company knows but the list does not', async () => {
      const signedIn = await company('outsider@example.com');
      const response = await lookup(signedIn.idToken, 'outsider@example.com');
      assert.equal(response.statusCode, 401);
      assert.match(response.json().message, /not allowed/);
    });

    it('refuses a person removed from the list at their next company sign-in', async () => {
      const admin = t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
      await listedByThePortal(t, STAFF);
      assert.equal((await lookup((await company()).idToken)).statusCode, 200);
      const removed = await t.app.inject({ method: 'DELETE', url: `/api/users/${STAFF}`, headers: admin });
      assert.equal(removed.json().accountCleanup, 'done', removed.body);
      assert.equal((await lookup((await company()).idToken)).statusCode, 401);
    });

    it('never adopts an account the portal did not make that holds the address', async () => {
      const squatter = await signUp(STAFF, 'squatter-password');
      await t.app.domain.users.insert({ email: STAFF, admin: false, registered: true, createdBy: 'test' });
      const signedIn = await company();
      assert.equal(signedIn.uid, squatter.uid, 'Firebase joined the sign-in to the existing account');
      assert.equal((await lookup(signedIn.idToken)).statusCode, 401);
      assert.equal((await t.app.domain.users.findByEmail(STAFF))?.firebaseUid ?? null, null);
    });

    it('refuses another provider of the project, even for a listed address', async () => {
      await listedByThePortal(t, STAFF);
      const other = await emulator().signInWithProvider(providerId.replace('acme', 'other'), STAFF);
      assert.equal((await lookup(other.idToken)).statusCode, 401);
    });

    it("marks an older account's address verified at its password sign-in, so a company sign-in keeps the password", async () => {
      // Accounts made before addresses were marked: unverified, which Firebase would strip of the password.
      const older = await t.createAccount(STAFF);
      assert.equal((await lookup(older.idToken)).statusCode, 200);
      const verified = async () => {
        const claims = JSON.parse(
          Buffer.from(String((await signIn(STAFF)).idToken.split('.')[1]), 'base64url').toString(),
        );
        return claims.email_verified === true;
      };
      for (let tries = 0; !(await verified()); tries++) {
        assert.ok(tries < 100, 'the address was never marked verified');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal((await lookup((await company()).idToken)).json().code, 'sso-link-required');
      assert.equal((await lookup((await signIn(STAFF)).idToken)).statusCode, 200, 'the password still works');
    });
  });
}

describe('single sign-on through an OIDC provider that does not vouch for the address', () => {
  const t = useTestApp({ env: { SSO_PROVIDER_ID: 'oidc.acme', SSO_BUTTON_LABEL: 'Acme' } });

  it('refuses it with a message saying so, audited', async () => {
    // No account holds the address: Firebase makes one and takes the provider's word, email_verified false.
    const signedIn = await emulator().signInWithProvider('oidc.acme', STAFF, 'subject-1', { emailVerified: false });
    await t.app.domain.users.insert({ email: STAFF, registered: true, createdBy: 'test', firebaseUid: signedIn.uid });
    const response = await t.app.inject({ url: `/api/users/${STAFF}`, headers: t.bearer(signedIn.idToken) });
    assert.equal(response.statusCode, 401);
    assert.equal(
      response.json().message,
      'Acme did not confirm that this email address is yours, so it cannot sign you in here. Please ask your IT team to confirm your address, or sign in with your email and password.',
    );
    assert.equal((await t.app.domain.users.findByEmail(STAFF))?.ssoSubject, null);
    const [entry] = await auditEntries(t, 'sso.link-refused');
    assert.match(String(entry?.detail), /^unverified address; /);
  });

  it('admits any domain when SSO_ALLOWED_DOMAINS is empty outside production', async () => {
    const outside = 'staff@elsewhere.org';
    await listedByThePortal(t, outside);
    const signedIn = await emulator().signInWithProvider('oidc.acme', outside);
    const response = await t.app.inject({ url: `/api/users/${outside}`, headers: t.bearer(signedIn.idToken) });
    assert.equal(response.statusCode, 200, response.body);
  });
});

describe('without single sign-on configured', () => {
  const t = useTestApp();

  it('refuses a company sign-in of a listed address, and keeps the stricter headers', async () => {
    await listedByThePortal(t, STAFF);
    const signedIn = await emulator().signInWithProvider('oidc.acme', STAFF);
    const response = await t.app.inject({ url: `/api/users/${STAFF}`, headers: t.bearer(signedIn.idToken) });
    assert.equal(response.statusCode, 401);
    const config = await t.app.inject({ url: '/config.json' });
    assert.equal(config.json().sso, undefined);
    assert.equal(config.headers['cross-origin-opener-policy'], 'same-origin');
  });

  it('answers a link call with 404: there is nothing to link', async () => {
    const account = await t.createAccount(STAFF);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/sso/link',
      headers: t.bearer(account.idToken),
      payload: { companyIdToken: account.idToken },
    });
    assert.equal(response.statusCode, 404);
  });
});
