import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

const EMAIL = 'jane.doe@example.com';
const PARCEL = 'SECRET4711';
const FAKE_TOKEN = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln';

/** An identity provider whose token check breaks with personal data in its error text, as a real bug might. */
const leakyIdentity = (real: IdentityProvider): IdentityProvider =>
  new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'verifyIdToken') {
        return async (token: string) => {
          throw new Error(`cannot verify ${token} of ${EMAIL} for /api/invoice?parcelCode=${PARCEL}`);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });

describe('request ids and logs', () => {
  const lines: string[] = [];
  const t = useTestApp({
    env: { TRUST_PROXY: '127.0.0.1' },
    wrapIdentity: leakyIdentity,
    logTo: (line) => lines.push(line),
  });

  it('gives every request an id of its own, echoed in the X-Request-Id header', async () => {
    const [first, second] = await Promise.all([
      t.app.inject({ url: '/api/healthz' }),
      t.app.inject({ url: '/api/healthz' }),
    ]);
    assert.match(String(first.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    assert.notEqual(first.headers['x-request-id'], second.headers['x-request-id']);
  });

  it("takes the trusted proxy's well-formed X-Request-Id, and ignores a malformed one", async () => {
    const given = await t.app.inject({ url: '/api/healthz', headers: { 'x-request-id': 'nginx-0123456789abcdef' } });
    assert.equal(given.headers['x-request-id'], 'nginx-0123456789abcdef');
    const malformed = await t.app.inject({ url: '/api/healthz', headers: { 'x-request-id': '<script>x</script>' } });
    assert.match(String(malformed.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('logs an answered request in one line: method, URL, status and time, with its id, level name and ISO time', async () => {
    lines.length = 0;
    const response = await t.app.inject({ url: '/api/healthz' });
    const logged = lines.map(
      (line) =>
        JSON.parse(line) as {
          reqId?: string;
          msg?: string;
          req?: { method: string; url: string };
          res?: { statusCode: number };
          responseTime?: number;
          level?: unknown;
          time?: unknown;
        },
    );
    assert.equal(logged.length, 1, lines.join('\n'));
    assert.equal(logged[0]?.msg, 'request completed');
    assert.equal(logged[0]?.reqId, response.headers['x-request-id']);
    assert.deepEqual(
      [logged[0]?.req?.method, logged[0]?.req?.url, logged[0]?.res?.statusCode],
      ['GET', '/api/healthz', 200],
    );
    assert.equal(typeof logged[0]?.responseTime, 'number');
    // What a log pipeline reads without a mapping: the level's name, a time it parses as a date.
    assert.equal(logged[0]?.level, 'info');
    assert.match(String(logged[0]?.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('ignores X-Request-Id from a client that is not a trusted proxy', async () => {
    const spoofed = await t.app.inject({
      url: '/api/healthz',
      remoteAddress: '203.0.113.7',
      headers: { 'x-request-id': 'chosen-by-the-client-0001' },
    });
    assert.match(String(spoofed.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('puts the id in every 5xx body beside a machine-readable code, and in every log line of the request', async () => {
    lines.length = 0;
    const response = await t.app.inject({
      url: `/api/invoice?parcelCode=${PARCEL}`,
      headers: { authorization: `Bearer ${FAKE_TOKEN}` },
    });
    assert.equal(response.statusCode, 500);
    const id = response.headers['x-request-id'];
    assert.deepEqual(response.json(), {
      message: 'Something went wrong on our side. Please try again later.',
      code: 'internal',
      requestId: id,
    });
    const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; msg?: string });
    assert.ok(logged.some((entry) => entry.msg === 'unhandled error'));
    assert.ok(logged.length >= 2, 'the error line and the request line');
    assert.ok(logged.some((entry) => entry.msg === 'request completed'));
    for (const entry of logged) assert.equal(entry.reqId, id);
  });

  it('gives 4xx bodies a code but no id', async () => {
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=A' });
    assert.equal(response.statusCode, 401);
    assert.deepEqual(Object.keys(response.json()).sort(), ['code', 'message']);
    assert.equal(response.json().code, 'unauthenticated');
  });

  it('logs no e-mail address, token or parcel code, in URLs or in fields', async () => {
    lines.length = 0;
    await t.app.inject({ url: `/api/users/${EMAIL}`, headers: { authorization: `Bearer ${FAKE_TOKEN}` } });
    await t.app.inject({ url: `/api/users/${encodeURIComponent(EMAIL)}/activate`, method: 'POST' });
    await t.app.inject({
      url: `/api/invoice?parcelCode=${PARCEL}`,
      headers: { authorization: `Bearer ${FAKE_TOKEN}` },
    });
    await t.app.inject({ url: `/api/invoices/${PARCEL}`, method: 'PUT', headers: { authorization: 'Bearer x' } });
    t.app.log.info({ email: EMAIL, nested: { token: `Bearer ${FAKE_TOKEN}` } }, `a note about ${EMAIL}`);
    const output = lines.join('');
    assert.ok(output.includes('/api/users/[masked]'), 'the URL is logged, masked');
    assert.ok(output.includes('parcelCode=[masked]'));
    for (const secret of [EMAIL, encodeURIComponent(EMAIL), FAKE_TOKEN, PARCEL, 'eyJ']) {
      assert.ok(!output.includes(secret), `${secret} leaked into the logs`);
    }
  });
});
