import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { signIn, signUp } from '../../test/helpers/tokens.ts';
import { failingIdentity } from '../../test/helpers/failing-identity.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

/** The row and the sign-in account must agree after any single failure: each test forces one. */
describe('allowlist and identity provider stay consistent', () => {
  const identity = failingIdentity();
  const t = useTestApp({ wrapIdentity: identity.wrap });
  afterEach(() => identity.heal());

  const asAdmin = async () => t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
  const add = (email: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/users/${email}`, headers });
  const remove = (email: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/${email}`, headers });
  const lastAudit = async () => (await t.app.domain.audit.list({ limit: 1, offset: 0 }))[0];

  it('adds nothing when the identity provider cannot create the account', async () => {
    const headers = await asAdmin();
    identity.fail('createUser');
    const response = await add('new@example.com', headers);
    assert.equal(response.statusCode, 503);
    assert.match(response.json().message, /sign-in service is unavailable/);
    identity.heal();
    assert.equal(await t.app.domain.users.findByEmail('new@example.com'), undefined);
    assert.equal(await t.identity.findUserByEmail('new@example.com'), undefined);
    assert.equal((await lastAudit())?.outcome, 'failed');
  });

  it('deletes the account it just created when the database refuses the row', async (test) => {
    const headers = await asAdmin();
    test.mock.method(t.app.domain.users, 'insert', async () => {
      throw new Error('forced database failure');
    });
    const response = await add('new@example.com', headers);
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), {
      message: 'Something went wrong on our side. Please try again later.',
      code: 'internal',
      requestId: response.headers['x-request-id'],
    });
    test.mock.restoreAll();
    assert.equal(await t.app.domain.users.findByEmail('new@example.com'), undefined);
    assert.equal(await t.identity.findUserByEmail('new@example.com'), undefined);
    assert.match((await lastAudit())?.detail ?? '', /deleted again/);
  });

  it('leaves no account when the database refuses the row after a foreign account was replaced', async (test) => {
    const headers = await asAdmin();
    const foreign = await signUp('outsider@example.com');
    test.mock.method(t.app.domain.users, 'insert', async () => {
      throw new Error('forced database failure');
    });
    assert.equal((await add('outsider@example.com', headers)).statusCode, 500);
    test.mock.restoreAll();
    // The foreign account was never the portal's to keep; the fresh one is deleted again like any failed add.
    assert.equal(await t.identity.findUserByEmail('outsider@example.com'), undefined);
    await assert.rejects(signIn('outsider@example.com'), /EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/);
    assert.equal(await t.app.domain.users.findByEmail('outsider@example.com'), undefined);
    assert.notEqual(foreign.uid, undefined);
    assert.match((await lastAudit())?.detail ?? '', /deleted again/);
  });

  for (const call of ['deleteUser', 'revokeSessions', 'findUserByEmail'] as const) {
    it(`keeps the row when ${call} fails during a removal, so the list still matches the accounts`, async () => {
      const headers = await asAdmin();
      const user = await t.createAccount('user@example.com');
      // Only a row without a uid needs the lookup by e-mail.
      if (call === 'findUserByEmail') await t.app.domain.users.update('user@example.com', { firebaseUid: null });
      identity.fail(call);
      const response = await remove('user@example.com', headers);
      assert.equal(response.statusCode, 503);
      assert.match(response.json().message, /try again/);
      identity.heal();
      assert.ok(await t.app.domain.users.findByEmail('user@example.com'));
      assert.equal((await t.identity.findUserByEmail('user@example.com'))?.uid, user.uid);
      const entry = await lastAudit();
      assert.deepEqual([entry?.outcome, entry?.target], ['failed', 'user@example.com']);
      assert.match(entry?.detail ?? '', /nothing was removed/);
      // Once the provider is back, the same call finishes the job.
      assert.equal((await remove('user@example.com', headers)).statusCode, 200);
      assert.equal(await t.identity.findUserByEmail('user@example.com'), undefined);
    });
  }

  it('still removes users while the audit log cannot be written', async (test) => {
    const headers = await asAdmin();
    await t.createAccount('user@example.com');
    test.mock.method(t.app.domain.audit, 'record', async () => {
      throw new Error('forced audit failure');
    });
    assert.equal((await remove('user@example.com', headers)).statusCode, 200);
    assert.equal(await t.app.domain.users.findByEmail('user@example.com'), undefined);
  });
});
