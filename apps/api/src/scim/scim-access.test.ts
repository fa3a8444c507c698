import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { auditLog } from '../db/schema.ts';
import { withRoomInTheMinute } from '../../test/helpers/minute-windows.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { SCIM_NETWORK_MESSAGE } from './authentication.ts';
import { PATCH_OP, SCIM_CONTENT_TYPE, SCIM_ERROR, USER_SCHEMA } from './scim-schemas.ts';

const TOKEN = 'scim-access-test-token-of-at-least-32-chars';
const PREVIOUS = 'scim-access-previous-token-of-32-characters';
/** Every SCIM create is a call to the emulator: on a busy two-core machine it can take seconds. */
const BUSY_MACHINE = { IDENTITY_TIMEOUT_MS: '15000', DATABASE_CONNECT_TIMEOUT_MS: '10000' };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function scim(app: FastifyInstance) {
  return async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    options: { body?: unknown; token?: string | undefined; from?: string } = {},
  ) => {
    const token = 'token' in options ? options.token : TOKEN;
    const response = await app.inject({
      method,
      url: `/scim/v2${url}`,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(options.body === undefined ? {} : { 'content-type': SCIM_CONTENT_TYPE }),
      },
      ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
      ...(options.from ? { remoteAddress: options.from } : {}),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (response.body ? response.json() : undefined) as Json,
    };
  };
}

const user = (userName: string) => ({ schemas: [USER_SCHEMA], userName, externalId: `ext-${userName}` });
const patch = (...Operations: object[]) => ({ schemas: [PATCH_OP], Operations });

describe("the directory's networks (SCIM_TOKEN_NETWORKS)", () => {
  const t = useTestApp({
    env: { ...BUSY_MACHINE, SCIM_TOKEN: TOKEN, SCIM_TOKEN_NETWORKS: '10.0.7.0/24, 2001:db8:5c1::/48' },
  });
  const call = (...args: Parameters<ReturnType<typeof scim>>) => scim(t.app)(...args);

  it('answers the directory inside them, and refuses the right token from anywhere else, audited', async () => {
    assert.equal((await call('GET', '/Users', { from: '10.0.7.9' })).status, 200);
    assert.equal((await call('GET', '/Users', { from: '2001:db8:5c1::7' })).status, 200);
    assert.equal((await call('GET', '/Users', { from: '::ffff:10.0.7.10' })).status, 200, 'IPv4-mapped');
    const outside = await call('POST', '/Users', { body: user('mallory@example.com'), from: '203.0.113.9' });
    assert.equal(outside.status, 403);
    assert.deepEqual(outside.body.schemas, [SCIM_ERROR]);
    assert.equal(outside.body.status, '403');
    assert.equal(outside.body.detail, SCIM_NETWORK_MESSAGE);
    assert.equal(await t.app.domain.users.findByEmail('mallory@example.com'), undefined, 'nothing was made');
    await t.domain.auditWriter.flush();
    const entries = await t.database.db.select().from(auditLog);
    assert.ok(
      entries.some(
        (entry) => entry.outcome === 'refused' && entry.detail === '403 a SCIM call from outside SCIM_TOKEN_NETWORKS',
      ),
      'the refusal is audited',
    );
  });
});

describe('wrong SCIM tokens, throttled per client address', () => {
  const t = useTestApp({ env: { ...BUSY_MACHINE, SCIM_TOKEN: TOKEN, RATE_LIMIT_SCIM_REFUSALS_PER_MINUTE: '3' } });
  const call = (...args: Parameters<ReturnType<typeof scim>>) => scim(t.app)(...args);

  it('answers 401 up to the allowance, then 429 to everything from there, and folds them in the audit log', async () => {
    await withRoomInTheMinute();
    const guesser = '198.51.100.7';
    const statuses = [];
    for (const token of ['guess-1', 'guess-2', undefined, 'guess-4', 'guess-5'])
      statuses.push((await call('GET', '/Users', { token, from: guesser })).status);
    assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
    // The right token from there is refused too until the minute ends: a guess that hits learns nothing.
    const right = await call('GET', '/Users', { from: guesser });
    assert.equal(right.status, 429);
    assert.ok(Number(right.headers['retry-after']) >= 1);
    assert.deepEqual(right.body.schemas, [SCIM_ERROR]);
    assert.equal(right.body.status, '429');
    // The directory itself, from its own address, is not held up by someone else's guessing.
    assert.equal((await call('GET', '/Users', { from: '192.0.2.10' })).status, 200);

    await t.domain.auditWriter.flush();
    const refusals = (await t.database.db.select().from(auditLog)).filter((entry) => entry.client === guesser);
    const wrong = refusals.filter((entry) => entry.detail === '401 a SCIM token that is not the configured one');
    const throttled = refusals.filter(
      (entry) => entry.detail === '429 SCIM calls from an address that sent too many wrong tokens',
    );
    assert.equal(wrong.length, 1, 'one row for the minute, however many wrong tokens');
    assert.equal(wrong[0]?.count, 2);
    assert.equal(throttled.length, 1);
    assert.equal(throttled[0]?.count, 3);
  });
});

describe('two tokens at once, while the directory is switched to a new one', () => {
  const t = useTestApp({ env: { ...BUSY_MACHINE, SCIM_TOKEN: TOKEN, SCIM_TOKEN_PREVIOUS: PREVIOUS } });
  const call = (...args: Parameters<ReturnType<typeof scim>>) => scim(t.app)(...args);

  it('accepts the new token and the previous one, and no third', async () => {
    assert.equal((await call('GET', '/Users', { token: TOKEN })).status, 200);
    assert.equal((await call('GET', '/Users', { token: PREVIOUS })).status, 200);
    assert.equal((await call('GET', '/Users', { token: `${PREVIOUS}x` })).status, 401);
  });
});

describe('what the operator lets the directory do (SCIM_EMAIL_DOMAINS, SCIM_ASSIGNABLE_ROLES)', () => {
  const t = useTestApp({
    env: {
      ...BUSY_MACHINE,
      SCIM_TOKEN: TOKEN,
      SCIM_EMAIL_DOMAINS: 'example.com',
      SCIM_ASSIGNABLE_ROLES: 'finance',
    },
  });
  const call = (...args: Parameters<ReturnType<typeof scim>>) => scim(t.app)(...args);

  it("creates addresses of the company's domains only", async () => {
    assert.equal((await call('POST', '/Users', { body: user('Kim@Example.com') })).status, 201);
    for (const address of ['kim@example.org', 'kim@evil-example.com', 'kim@mail.example.com']) {
      const refused = await call('POST', '/Users', { body: user(address) });
      assert.equal(refused.status, 400, address);
      assert.deepEqual(refused.body.schemas, [SCIM_ERROR]);
      assert.equal(refused.body.scimType, 'invalidValue');
      assert.match(refused.body.detail, /is not an address of the company's domains \(example.com\)/);
      assert.equal(await t.app.domain.users.findByEmail(address), undefined);
    }
  });

  it("gives and takes the roles the operator allowed it; the others stay the administrators' on its rows", async () => {
    await t.createAccount('boss@example.com', { admin: true });
    const lee = (await call('POST', '/Users', { body: user('lee@example.com') })).body;
    const add = (role: string) =>
      call('PATCH', `/Groups/${role}`, { body: patch({ op: 'add', path: 'members', value: [{ value: lee.id }] }) });
    const admin = await add('admin');
    assert.equal(admin.status, 403);
    assert.deepEqual(admin.body.schemas, [SCIM_ERROR]);
    assert.match(admin.body.detail, /may not give or take the admin role.*SCIM_ASSIGNABLE_ROLES/);
    assert.equal((await t.app.domain.users.findByEmail('lee@example.com'))?.admin, false);
    const replaced = await call('PATCH', '/Groups/admin', {
      body: patch({ op: 'replace', path: 'members', value: [{ value: lee.id }] }),
    });
    assert.equal(replaced.status, 403, 'nor by replacing the members');
    assert.equal((await t.app.domain.users.findByEmail('lee@example.com'))?.admin, false);
    assert.equal((await add('finance')).status, 200);
    assert.equal((await t.app.domain.users.findByEmail('lee@example.com'))?.finance, true);
    const taken = await call('PATCH', '/Groups/finance', {
      body: patch({ op: 'remove', path: `members[value eq "${lee.id}"]` }),
    });
    assert.equal(taken.status, 200);
    assert.equal((await t.app.domain.users.findByEmail('lee@example.com'))?.finance, false);

    // The admin role is not the directory's: the administrators give it on its rows, and it cannot undo that.
    await t.app.domain.userAdmin.setAdmin({ email: 'lee@example.com', admin: true, actor: 'boss@example.com' });
    assert.equal((await t.app.domain.users.findByEmail('lee@example.com'))?.admin, true);
    const emptied = await call('PUT', '/Groups/admin', { body: { displayName: 'admin', members: [] } });
    assert.equal(emptied.status, 403);
    assert.equal((await t.app.domain.users.findByEmail('lee@example.com'))?.admin, true);
    // The finance role is the directory's: the admin screen's change is refused, as it would be undone.
    await assert.rejects(
      t.app.domain.userAdmin.setFinance({ email: 'lee@example.com', finance: true, actor: 'boss@example.com' }),
      (error: Error & { code?: string }) => /kept by your company directory/.test(error.message),
    );
  });
});
