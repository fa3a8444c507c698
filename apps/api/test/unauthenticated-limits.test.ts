import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { useTestApp } from './helpers/test-app.ts';

/** The calls anyone may make without signing in are limited, so the list cannot be probed or flipped in bulk. */
describe('rate limits on the calls made without signing in', () => {
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '3' } });

  async function statusesOf(requests: InjectOptions[]) {
    const statuses = [];
    let last;
    for (const request of requests) {
      last = await t.app.inject(request);
      statuses.push(last.statusCode);
    }
    return { statuses, last };
  }

  it('limits POST /users per client with 429, Retry-After and a message', async () => {
    await t.app.usersRepository.insert({ email: 'new@example.com' });
    const register = {
      method: 'POST',
      url: '/api/users',
      payload: { userId: 'new@example.com' },
      remoteAddress: '10.1.0.1',
    } as const;
    const { statuses, last } = await statusesOf(Array(5).fill(register));
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.ok(Number(last?.headers['retry-after']) > 0);
    assert.match(last?.json().message, /Too many requests. Please wait \d+ seconds/);
    // Another client is not affected.
    assert.equal((await t.app.inject({ ...register, remoteAddress: '10.1.0.2' })).statusCode, 200);
  });

  it('limits PUT /users/:email per client, whatever the address', async () => {
    const requests = ['a', 'b', 'c', 'd'].map(
      (name) =>
        ({
          method: 'PUT',
          url: `/api/users/${name}@example.com`,
          payload: { activated: true },
          remoteAddress: '10.2.0.1',
        }) as const,
    );
    const { statuses } = await statusesOf(requests);
    assert.deepEqual(statuses, [404, 404, 404, 429]);
  });

  it('limits PUT /users/:email per address, whatever the client, counting spellings of one address together', async () => {
    await t.app.usersRepository.insert({ email: 'new@example.com' });
    const requests = ['new@example.com', 'NEW@example.com', '%20new@example.com', 'New@Example.com'].map(
      (email, i) =>
        ({
          method: 'PUT',
          url: `/api/users/${email}`,
          payload: { activated: true },
          remoteAddress: `10.3.0.${i + 1}`,
        }) as const,
    );
    const { statuses } = await statusesOf(requests);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });

  it('limits GET /users/:email per address too, not only per client', async () => {
    await t.app.usersRepository.insert({ email: 'known@example.com' });
    const requests = [1, 2, 3, 4].map((i) => ({ url: '/api/users/known@example.com', remoteAddress: `10.5.0.${i}` }));
    const { statuses } = await statusesOf(requests);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });

  it('does not limit signed-in, allowlisted callers', async () => {
    const user = await t.createAccount('user@example.com');
    const request = {
      method: 'PUT',
      url: '/api/users/user@example.com',
      payload: { activated: true },
      remoteAddress: '10.4.0.1',
      headers: t.bearer(user.idToken),
    } as const;
    const { statuses } = await statusesOf(Array(5).fill(request));
    assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
  });
});
