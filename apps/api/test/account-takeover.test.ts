import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_PROJECT_ID, useTestApp } from './helpers/test-app.ts';
import { emulator, signIn, signUp, withClaims } from './helpers/tokens.ts';

const STAFF = 'staff@example.com';

/** Sets a new password the way "Forgot Password" does: a reset mail's code, read from the emulator. */
async function resetPasswordThroughMailbox(email: string, newPassword: string) {
  const toolkit = emulator();
  await toolkit.call('sendOobCode', { requestType: 'PASSWORD_RESET', email });
  const host = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  const listing = (await (await fetch(`http://${host}/emulator/v1/projects/${TEST_PROJECT_ID}/oobCodes`)).json()) as {
    oobCodes: { email: string; oobCode: string; requestType: string }[];
  };
  const code = listing.oobCodes
    .filter((entry) => entry.email === email && entry.requestType === 'PASSWORD_RESET')
    .at(-1);
  assert.ok(code, 'the reset mail was sent');
  const { status } = await toolkit.call('resetPassword', { oobCode: code.oobCode, newPassword });
  assert.equal(status, 200);
}

/**
 * An account made at the identity provider before the invitation (self sign-up with the web API key, or an
 * outside account that changed its address) must not get in: the invite takes it over.
 */
describe('accounts made before the invitation', () => {
  const t = useTestApp();

  async function invite(email: string) {
    const admin = t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
    const response = await t.app.inject({ method: 'POST', url: `/api/users/${email}`, headers: admin });
    assert.equal(response.statusCode, 201, response.body);
  }

  async function expectLockedOut(oldToken: string, oldPassword: string) {
    const refused = await t.app.inject({ url: `/api/users/${STAFF}`, headers: t.bearer(oldToken) });
    assert.equal(refused.statusCode, 401, 'the sessions from before the invite have ended');
    await assert.rejects(signIn(STAFF, oldPassword), /INVALID_LOGIN_CREDENTIALS|INVALID_PASSWORD/);
    // Only the mailbox owner, through "Forgot Password", gets in.
    await resetPasswordThroughMailbox(STAFF, 'mailbox-owner-password');
    const owner = await signIn(STAFF, 'mailbox-owner-password');
    const allowed = await t.app.inject({ url: `/api/users/${STAFF}`, headers: t.bearer(owner.idToken) });
    assert.equal(allowed.statusCode, 200, allowed.body);
  }

  it('signed up with the staff address before the invite: password replaced, sessions ended', async () => {
    const squatter = await signUp(STAFF, 'squatter-password');
    await invite(STAFF);
    assert.notEqual((await t.app.domain.users.findByEmail(STAFF))?.firebaseUid, squatter.uid);
    await expectLockedOut(squatter.idToken, 'squatter-password');
  });

  it('an outside account that changed its e-mail to the staff address: taken over the same way', async () => {
    const outside = await signUp('outside@example.com', 'outside-password');
    const changed = await emulator().call('update', {
      idToken: outside.idToken,
      email: STAFF,
      returnSecureToken: true,
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    await invite(STAFF);
    await expectLockedOut(String(changed.body.idToken), 'outside-password');
  });

  it('refuses a token with the listed address but another account (uid) than the listed one', async () => {
    await t.createAccount(STAFF);
    const other = await signUp('other@example.com');
    const forged = withClaims(other.idToken, { email: STAFF });
    const response = await t.app.inject({ url: `/api/users/${STAFF}`, headers: t.bearer(forged) });
    assert.equal(response.statusCode, 401);
    assert.match(response.json().message, /not allowed/);
  });

  for (const [label, claims] of [
    ['another sign-in provider', { sign_in_provider: 'google.com', identities: {} }],
    ['another tenant', { sign_in_provider: 'password', identities: {}, tenant: 'other-tenant' }],
  ] as const) {
    it(`refuses a listed account's token from ${label}`, async () => {
      const staff = await t.createAccount(STAFF);
      const ok = await t.app.inject({ url: `/api/users/${STAFF}`, headers: t.bearer(staff.idToken) });
      assert.equal(ok.statusCode, 200);
      const response = await t.app.inject({
        url: `/api/users/${STAFF}`,
        headers: t.bearer(withClaims(staff.idToken, { firebase: claims })),
      });
      assert.equal(response.statusCode, 401);
    });
  }
});
