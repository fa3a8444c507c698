import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from './helpers/test-app.ts';
import { userAdminElsewhere } from './helpers/user-admin-elsewhere.ts';

/** A removed user holds an ID token valid for up to an hour; the server must stop honouring it at once. */
describe('a removed user is refused on the next call, with an unexpired token', () => {
  const t = useTestApp({ env: { TOKEN_RECHECK_SECONDS: '60' } });
  const calls = (email: string) => [
    { url: `/api/users/${email}` },
    { url: '/api/invoice?parcelCode=DEMO000001', needs: ['GET', '/api/invoice'] as const },
    { url: '/api/users', method: 'POST' as const, payload: { userId: email } },
  ];

  async function assertRefused(email: string, idToken: string) {
    for (const { needs, ...call } of calls(email)) {
      if (needs && !t.app.hasRoute({ method: needs[0], url: needs[1] })) continue;
      const response = await t.app.inject({ ...call, headers: t.bearer(idToken) });
      assert.equal(response.statusCode, 401, `${call.url}: ${response.body}`);
      assert.match(response.json().message, /sign in again|not allowed/);
    }
  }

  it('after an admin removes them through the API', async () => {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    // Warm the token cache: the removal must not wait for the recheck interval (60 s here).
    assert.equal(
      (await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(user.idToken) })).statusCode,
      200,
    );
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/user@example.com',
      headers: t.bearer(admin.idToken),
    });
    assert.equal(removed.statusCode, 200);
    await assertRefused('user@example.com', user.idToken);
  });

  it('after the CLI removes them, even while this server still caches the token', async () => {
    await t.createAccount('admin@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    assert.equal(
      (await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(user.idToken) })).statusCode,
      200,
    );
    // Another process: no access to this server's token cache, only to the database and the provider.
    const cli = userAdminElsewhere(t);
    await cli.removeUser({ email: 'user@example.com', actor: 'cli:test' });
    await assertRefused('user@example.com', user.idToken);
  });

  it('and stays refused when the address is added again: the old token belonged to the deleted account', async () => {
    const admin = t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
    const user = await t.createAccount('user@example.com');
    await t.app.inject({ method: 'DELETE', url: '/api/users/user@example.com', headers: admin });
    assert.equal(
      (await t.app.inject({ method: 'POST', url: '/api/users/user@example.com', headers: admin })).statusCode,
      201,
    );
    const response = await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(user.idToken) });
    assert.equal(response.statusCode, 401);
    assert.match(response.json().message, /sign in again/);
  });
});
