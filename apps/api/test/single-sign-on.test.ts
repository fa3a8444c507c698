import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/test-app.ts';
import { emulator, signUp } from './helpers/tokens.ts';

const STAFF = 'staff@example.com';

/**
 * Single sign-on binds a company sign-in to the allowlist by the password sign-in's rule: the address on the
 * list, and the row's own account (decision 0068). Tokens come from the Auth emulator's signInWithIdp, as the
 * web SDK's pop-up ends.
 */
for (const providerId of ['oidc.acme', 'saml.acme']) {
  describe(`single sign-on through ${providerId}`, () => {
    const t = useTestApp({ env: { SSO_PROVIDER_ID: providerId, SSO_BUTTON_LABEL: 'Acme' } });
    const lookup = (idToken: string) => t.app.inject({ url: `/api/users/${STAFF}`, headers: t.bearer(idToken) });

    it('serves the provider and its label to the web app', async () => {
      const response = await t.app.inject({ url: '/config.json' });
      assert.deepEqual(response.json().sso, { providerId, label: 'Acme' });
      // The pop-up talks back to the page, and Firebase's helper frame may load.
      assert.equal(response.headers['cross-origin-opener-policy'], 'same-origin-allow-popups');
      assert.match(String(response.headers['content-security-policy']), /frame-src [^;]*http:\/\/127\.0\.0\.1:\d+/);
    });

    it('lets a person on the list in: the company sign-in joins the account the portal made for the address', async () => {
      const added = await t.createAccount(STAFF, { activated: false });
      const company = await emulator().signInWithProvider(providerId, STAFF);
      assert.equal(company.uid, added.uid, 'the same account, so the row binds it');
      const response = await lookup(company.idToken);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal((await t.app.domain.users.findByEmail(STAFF))?.activated, true);
    });

    it('refuses a person the company knows but the list does not', async () => {
      const company = await emulator().signInWithProvider(providerId, 'outsider@example.com');
      const response = await t.app.inject({
        url: '/api/users/outsider@example.com',
        headers: t.bearer(company.idToken),
      });
      assert.equal(response.statusCode, 401);
      assert.match(response.json().message, /not allowed/);
    });

    it('refuses a person removed from the list at their next company sign-in', async () => {
      const admin = t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
      await t.createAccount(STAFF);
      assert.equal((await lookup((await emulator().signInWithProvider(providerId, STAFF)).idToken)).statusCode, 200);
      const removed = await t.app.inject({ method: 'DELETE', url: `/api/users/${STAFF}`, headers: admin });
      assert.equal(removed.json().accountCleanup, 'done', removed.body);
      const again = await emulator().signInWithProvider(providerId, STAFF);
      assert.equal((await lookup(again.idToken)).statusCode, 401);
    });

    it('never adopts an account the portal did not make that holds the address', async () => {
      const squatter = await signUp(STAFF, 'squatter-password');
      await t.app.domain.users.insert({ email: STAFF, admin: false, registered: true, createdBy: 'test' });
      const company = await emulator().signInWithProvider(providerId, STAFF);
      assert.equal(company.uid, squatter.uid, 'Firebase joined the sign-in to the existing account');
      const response = await lookup(company.idToken);
      assert.equal(response.statusCode, 401);
      assert.equal((await t.app.domain.users.findByEmail(STAFF))?.firebaseUid ?? null, null);
    });

    it('refuses another provider of the project, even for a listed address', async () => {
      await t.createAccount(STAFF);
      const other = await emulator().signInWithProvider(providerId.replace('acme', 'other'), STAFF);
      assert.equal((await lookup(other.idToken)).statusCode, 401);
    });
  });
}

describe('without single sign-on configured', () => {
  const t = useTestApp();

  it('refuses a company sign-in of a listed address, and keeps the stricter headers', async () => {
    await t.createAccount(STAFF);
    const company = await emulator().signInWithProvider('oidc.acme', STAFF);
    const response = await t.app.inject({ url: `/api/users/${STAFF}`, headers: t.bearer(company.idToken) });
    assert.equal(response.statusCode, 401);
    const config = await t.app.inject({ url: '/config.json' });
    assert.equal(config.json().sso, undefined);
    assert.equal(config.headers['cross-origin-opener-policy'], 'same-origin');
  });
});
