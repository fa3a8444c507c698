import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { BUSY_ADDRESS_DELAY_MS } from '../src/rate-limits/rate-limits.ts';
import { withRoomInTheMinute } from './helpers/minute-windows.ts';
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
    await t.app.domain.users.insert({ email: 'new@example.com' });
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

  it('gives lookup, register and activate one budget per client, the same for every address', async () => {
    const requests: InjectOptions[] = [
      { url: '/api/users/a@example.com', remoteAddress: '10.2.0.1' },
      { method: 'POST', url: '/api/users', payload: { userId: 'b@example.com' }, remoteAddress: '10.2.0.1' },
      { method: 'PUT', url: '/api/users/c@example.com', payload: { activated: true }, remoteAddress: '10.2.0.1' },
      { url: '/api/users/d@example.com', remoteAddress: '10.2.0.1' },
    ];
    const { statuses } = await statusesOf(requests);
    assert.deepEqual(statuses, [404, 200, 200, 429]);
  });

  it('keys IPv6 clients by /64: rotating addresses inside one network buys no more calls', async () => {
    const requests = [1, 2, 3, 4].map((i) => ({
      url: '/api/users/a@example.com',
      remoteAddress: `2001:db8:7:7::${i}`,
    }));
    const { statuses } = await statusesOf(requests);
    assert.deepEqual(statuses, [404, 404, 404, 429]);
    assert.equal(
      (await t.app.inject({ url: '/api/users/a@example.com', remoteAddress: '2001:db8:7:8::1' })).statusCode,
      404,
    );
  });

  it('ignores X-Forwarded-For from a client when no proxy is trusted', async () => {
    const requests = [1, 2, 3, 4].map((i) => ({
      url: '/api/users/a@example.com',
      remoteAddress: '10.6.0.1',
      headers: { 'x-forwarded-for': `198.51.100.${i}` },
    }));
    const { statuses } = await statusesOf(requests);
    assert.deepEqual(statuses, [404, 404, 404, 429]);
  });

  it('slows, never refuses, an address asked about from many clients: nobody can lock a person out', async () => {
    await t.app.domain.users.insert({ email: 'victim@example.com' });
    const spellings = ['victim@example.com', 'VICTIM@example.com', '%20victim@example.com', 'Victim@Example.com'];
    const requests = spellings.map(
      (email, i) =>
        ({
          method: 'PUT',
          url: `/api/users/${email}`,
          payload: { activated: true },
          remoteAddress: `10.3.0.${i + 1}`,
        }) as const,
    );
    // The four calls and the fifth must count in one minute of the clock, or the fifth finds the count at zero.
    await withRoomInTheMinute();
    const { statuses } = await statusesOf(requests);
    assert.deepEqual(statuses, [200, 200, 200, 200]);
    const started = Date.now();
    const victim = await t.app.inject({ url: '/api/users/victim@example.com', remoteAddress: '10.3.1.1' });
    assert.equal(victim.statusCode, 200, 'the person themself still gets an answer');
    assert.ok(Date.now() - started >= BUSY_ADDRESS_DELAY_MS - 50, 'late, because the address is asked about too often');
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
