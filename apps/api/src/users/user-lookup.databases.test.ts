import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { BAD_EMAIL_ADDRESSES } from '../../test/helpers/bad-email-addresses.ts';
import { expiredToken, signUp, tokenForOtherProject } from '../../test/helpers/tokens.ts';

describe('GET /api/users/:email', () => {
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '5' } });

  it('answers { email, activated } to anyone, without the role', async () => {
    await t.app.domain.users.insert({ email: 'invited@example.com', activated: false, admin: true });
    const response = await t.app.inject({ method: 'GET', url: '/api/users/invited@example.com' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { email: 'invited@example.com', activated: false });
  });

  it('trims and lower-cases the e-mail', async () => {
    await t.app.domain.users.insert({ email: 'user@example.com', activated: true });
    const response = await t.app.inject({ method: 'GET', url: '/api/users/%20User@Example.COM%20' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().email, 'user@example.com');
  });

  it('tells the user and admins the role flags', async () => {
    const user = await t.createAccount('user@example.com');
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const own = await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(user.idToken) });
    assert.deepEqual(own.json(), { email: 'user@example.com', activated: true, admin: false, finance: false });
    const byAdmin = await t.app.inject({ url: '/api/users/admin@example.com', headers: t.bearer(admin.idToken) });
    assert.deepEqual(byAdmin.json(), { email: 'admin@example.com', activated: true, admin: true, finance: false });
    const other = await t.app.inject({ url: '/api/users/admin@example.com', headers: t.bearer(user.idToken) });
    assert.deepEqual(other.json(), { email: 'admin@example.com', activated: true });
  });

  it('answers 404 with a message for an unknown address', async () => {
    const response = await t.app.inject({ url: '/api/users/nobody@example.com' });
    assert.equal(response.statusCode, 404);
    assert.match(response.json().message, /No account/);
  });

  for (const [label, address, status] of BAD_EMAIL_ADDRESSES) {
    it(`answers ${status} with a message for an address that is ${label}`, async () => {
      const response = await t.app.inject({ url: `/api/users/${address}` });
      assert.equal(response.statusCode, status);
      // Only a message and its code: never Fastify's own fields, nor the 10 KB input echoed back.
      assert.deepEqual(Object.keys(response.json()), ['message', 'code']);
      assert.ok(response.body.length < 300, response.body);
    });
  }

  it('refuses a token from an account that is not on the list', async () => {
    await t.app.domain.users.insert({ email: 'user@example.com', activated: true });
    const outsider = await signUp('outsider@example.com');
    const response = await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(outsider.idToken) });
    assert.equal(response.statusCode, 401);
    assert.match(response.json().message, /not allowed/);
  });

  for (const [label, makeToken] of [
    ['garbage', () => 'not-a-token'],
    ['expired', expiredToken],
    ['for another project', tokenForOtherProject],
  ] as const) {
    it(`answers 401 with a message for a token that is ${label}`, async () => {
      const user = await t.createAccount('user@example.com');
      const response = await t.app.inject({
        url: '/api/users/user@example.com',
        headers: t.bearer(makeToken(user.idToken)),
      });
      assert.equal(response.statusCode, 401);
      assert.match(response.json().message, /sign in again/);
    });
  }

  it('limits a burst of unauthenticated lookups with 429 and Retry-After', async () => {
    // An address no other test looks up: the per-address allowance is shared by the whole file.
    await t.app.domain.users.insert({ email: 'burst@example.com' });
    const statuses = [];
    let limited;
    for (let i = 0; i < 7; i++) {
      limited = await t.app.inject({ url: '/api/users/burst@example.com', remoteAddress: '10.9.9.9' });
      statuses.push(limited.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    assert.ok(Number(limited?.headers['retry-after']) > 0);
    assert.match(limited?.json().message, /Too many requests/);
  });
});
