import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOTAL_COUNT_HEADER } from '@portal/contract';
import { enrollPasskey } from '@portal/dev-stack/passkeys';
import { signUp } from '../../test/helpers/tokens.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { BAD_EMAIL_ADDRESSES } from '../../test/helpers/bad-email-addresses.ts';

describe('admin user management', () => {
  const t = useTestApp({
    env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '10000', RATE_LIMIT_ANONYMOUS_PER_SECOND: '10000' },
  });
  const asAdmin = async () => t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
  const rowOf = (email: string) => t.app.domain.users.findByEmail(email);
  const accountOf = (email: string) => t.identity.findUserByEmail(email);

  describe('GET /api/users', () => {
    it('returns every allowed user, sorted, with the total in a header, when asked without parameters', async () => {
      const headers = await asAdmin();
      await t.app.domain.users.insert({ email: 'b@example.com', createdBy: 'admin@example.com' });
      const response = await t.app.inject({ url: '/api/users', headers });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers[TOTAL_COUNT_HEADER], '2');
      assert.equal(response.headers['cache-control'], 'no-store');
      const [first, second] = response.json();
      assert.equal(first.email, 'admin@example.com');
      // An administrator's row shows their passkeys: when each was set up and last used.
      assert.equal(first.passkeys.length, 1);
      assert.ok(Date.parse(first.passkeys[0].createdAt) <= Date.now());
      assert.equal(first.passkeys[0].lastUsedAt, null, 'set up, never used to confirm since');
      assert.deepEqual(Object.keys(second).sort(), [
        'activated',
        'admin',
        'createdAt',
        'createdBy',
        'email',
        'finance',
        'managedBy',
        'registered',
        'suspended',
      ]);
      assert.deepEqual(
        { ...second, createdAt: undefined },
        {
          email: 'b@example.com',
          admin: false,
          finance: false,
          activated: false,
          registered: false,
          createdAt: undefined,
          createdBy: 'admin@example.com',
          managedBy: null,
          suspended: false,
        },
      );
    });

    it('searches case-insensitively and pages, reporting the total of all matches', async () => {
      const headers = await asAdmin();
      for (let i = 0; i < 12; i++)
        await t.app.domain.users.insert({ email: `anna${String(i).padStart(2, '0')}@example.com` });
      await t.app.domain.users.insert({ email: 'bob@example.com' });
      const page = await t.app.inject({ url: '/api/users?search=ANNA&limit=5&offset=10', headers });
      assert.equal(page.statusCode, 200);
      assert.equal(page.headers[TOTAL_COUNT_HEADER], '12');
      assert.deepEqual(
        page.json().map((user: { email: string }) => user.email),
        ['anna10@example.com', 'anna11@example.com'],
      );
      const all = await t.app.inject({ url: '/api/users?search=anna', headers });
      assert.equal(all.json().length, 12);
      const past = await t.app.inject({ url: '/api/users?limit=5&offset=500', headers });
      assert.deepEqual(past.json(), []);
      assert.equal(past.headers[TOTAL_COUNT_HEADER], '14');
    });

    it('treats LIKE wildcards in a search as plain text', async () => {
      const headers = await asAdmin();
      await t.app.domain.users.insert({ email: 'a_b@example.com' });
      await t.app.domain.users.insert({ email: 'axb@example.com' });
      const response = await t.app.inject({ url: '/api/users?search=a_b', headers });
      assert.deepEqual(
        response.json().map((user: { email: string }) => user.email),
        ['a_b@example.com'],
      );
      const percent = await t.app.inject({ url: '/api/users?search=%25', headers });
      assert.deepEqual(percent.json(), []);
    });

    for (const query of ['limit=0', 'limit=abc', 'limit=1001', 'offset=-1', 'page=2', `search=${'a'.repeat(300)}`]) {
      it(`answers 400 with a message for ${query.slice(0, 20)}`, async () => {
        const response = await t.app.inject({ url: `/api/users?${query}`, headers: await asAdmin() });
        assert.equal(response.statusCode, 400);
        assert.match(response.json().message, /^Invalid/);
      });
    }
  });

  describe('GET /api/users: order and status', () => {
    it('sorts by e-mail either way or by date added, filters by status, and counts the filtered list', async () => {
      const headers = await asAdmin();
      const repository = t.app.domain.users;
      // A few ms apart: the embedded database's clock can give rows added back to back the same time.
      await sleep(5);
      await repository.insert({ email: 'carl@example.com', activated: true });
      await sleep(5);
      await repository.insert({ email: 'anna@example.com' });
      await sleep(5);
      await repository.insert({ email: 'bert@example.com', activated: true });
      const emails = async (query: string) => {
        const response = await t.app.inject({ url: `/api/users?${query}`, headers });
        assert.equal(response.statusCode, 200, response.body);
        return {
          total: response.headers[TOTAL_COUNT_HEADER],
          emails: response.json().map((u: { email: string }) => u.email),
        };
      };
      assert.deepEqual((await emails('sort=-email')).emails, [
        'carl@example.com',
        'bert@example.com',
        'anna@example.com',
        'admin@example.com',
      ]);
      assert.deepEqual((await emails('sort=added')).emails, [
        'admin@example.com',
        'carl@example.com',
        'anna@example.com',
        'bert@example.com',
      ]);
      assert.deepEqual(await emails('sort=-added&limit=2&offset=1'), {
        total: '4',
        emails: ['anna@example.com', 'carl@example.com'],
      });
      assert.deepEqual(await emails('status=invited'), { total: '1', emails: ['anna@example.com'] });
      assert.deepEqual(await emails('status=admin'), { total: '1', emails: ['admin@example.com'] });
      assert.deepEqual(await emails('status=activated&sort=-added&limit=1'), {
        total: '3',
        emails: ['bert@example.com'],
      });
      const bad = await t.app.inject({ url: '/api/users?sort=name', headers });
      assert.equal(bad.statusCode, 400);
    });
  });

  describe('PATCH /api/users/:email (administrator role)', () => {
    it('makes someone an administrator and back, audited; refuses the last administrator and non-admins', async () => {
      const headers = await asAdmin();
      const user = await t.createAccount('user@example.com');
      const patch = (email: string, admin: boolean, as = headers) =>
        t.app.inject({ method: 'PATCH', url: `/api/users/${email}`, headers: as, payload: { admin } });

      const byUser = await patch('user@example.com', true, t.bearer(user.idToken));
      assert.equal(byUser.statusCode, 403);

      const on = await patch('user@example.com', true);
      assert.equal(on.statusCode, 200, on.body);
      assert.equal(on.json().admin, true);
      assert.equal((await rowOf('user@example.com'))?.admin, true);
      // The new admin's very next call is an admin's: it asks for the passkey every admin needs, and once
      // they set one up (their first visit to the admin page), it is answered.
      const beforePasskey = await t.app.inject({ url: '/api/users', headers: t.bearer(user.idToken) });
      assert.equal(beforePasskey.statusCode, 403);
      assert.equal(beforePasskey.json().code, 'step-up-required');
      // The promoting admin was given the code their first passkey needs, once.
      const { enrollment } = on.json() as { enrollment: { code: string } };
      await enrollPasskey(t.callAs(user.idToken), user.passkey, { enrollmentCode: enrollment.code });
      const list = await t.app.inject({ url: '/api/users', headers: t.bearer(user.idToken) });
      assert.equal(list.statusCode, 200);

      assert.equal((await patch('admin@example.com', false)).statusCode, 200);
      // No longer an admin, the former one may not change roles any more.
      assert.equal((await patch('admin@example.com', true)).statusCode, 403);
      const last = await patch('user@example.com', false, t.bearer(user.idToken));
      assert.equal(last.statusCode, 409);
      assert.match(last.json().message, /last administrator/);
      assert.equal((await rowOf('user@example.com'))?.admin, true);

      assert.equal((await patch('nobody@example.com', true, t.bearer(user.idToken))).statusCode, 404);
      const extra = await t.app.inject({
        method: 'PATCH',
        url: '/api/users/user@example.com',
        headers: t.bearer(user.idToken),
        payload: { admin: true, activated: true },
      });
      assert.equal(extra.statusCode, 400);

      const entries = await t.app.domain.audit.list({ limit: 10, offset: 0 });
      const roleEntries = entries
        .filter((entry) => entry.action.endsWith('-admin'))
        .map((entry) => [entry.action, entry.target, entry.outcome]);
      assert.deepEqual(roleEntries.reverse(), [
        ['users.make-admin', 'user@example.com', 'ok'],
        ['users.remove-admin', 'admin@example.com', 'ok'],
        ['users.remove-admin', 'user@example.com', 'refused'],
        ['users.make-admin', 'nobody@example.com', 'refused'],
      ]);
    });
  });

  describe('POST /api/users/:email', () => {
    it('creates the account without a password and the row, answers 201 and audits the add', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users/new@example.com',
        headers: await asAdmin(),
      });
      assert.equal(response.statusCode, 201);
      assert.deepEqual(
        { ...response.json<Record<string, unknown>>(), createdAt: undefined },
        {
          email: 'new@example.com',
          admin: false,
          finance: false,
          activated: false,
          registered: true,
          createdAt: undefined,
          createdBy: 'admin@example.com',
          managedBy: null,
          suspended: false,
        },
      );
      const account = await accountOf('new@example.com');
      assert.ok(account);
      assert.equal((await rowOf('new@example.com'))?.firebaseUid, account.uid);
      const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
      assert.deepEqual(
        [entry?.actor, entry?.action, entry?.target, entry?.outcome],
        ['admin@example.com', 'users.add', 'new@example.com', 'ok'],
      );
    });

    it('accepts the spec form: a JSON content type with an empty body, or {}', async () => {
      const headers = { ...(await asAdmin()), 'content-type': 'application/json' };
      for (const [email, payload] of [
        ['one@example.com', ''],
        ['two@example.com', '{}'],
      ] as const) {
        const response = await t.app.inject({ method: 'POST', url: `/api/users/${email}`, headers, payload });
        assert.equal(response.statusCode, 201, response.body);
      }
    });

    it('trims and lower-cases the address', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users/%20New@Example.COM%20',
        headers: await asAdmin(),
      });
      assert.equal(response.statusCode, 201);
      assert.equal(response.json().email, 'new@example.com');
      assert.ok(await rowOf('new@example.com'));
    });

    it('answers 409 with a message the screen can show for an address already on the list', async () => {
      const headers = await asAdmin();
      await t.app.inject({ method: 'POST', url: '/api/users/new@example.com', headers });
      const again = await t.app.inject({ method: 'POST', url: '/api/users/NEW@example.com', headers });
      assert.equal(again.statusCode, 409);
      assert.deepEqual(again.json(), { message: 'new@example.com is already on the list.', code: 'conflict' });
    });

    it('answers the same add made twice at once with one 201 and one 409, leaving one row and one account', async () => {
      const headers = await asAdmin();
      const add = () => t.app.inject({ method: 'POST', url: '/api/users/twice@example.com', headers });
      const statuses = (await Promise.all([add(), add()])).map((response) => response.statusCode).sort();
      assert.deepEqual(statuses, [201, 409]);
      const { items } = await t.app.domain.users.list({ search: 'twice' });
      assert.equal(items.length, 1);
      assert.equal(items[0]?.firebaseUid, (await accountOf('twice@example.com'))?.uid);
    });

    it('refuses an address whose sign-in account the portal did not make, leaving that account alone', async () => {
      const outsider = await signUp('outsider@example.com');
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users/outsider@example.com',
        headers: await asAdmin(),
      });
      assert.equal(response.statusCode, 409);
      assert.equal(response.json().code, 'foreign-account');
      assert.match(response.json().message, /already has a sign-in account that this portal did not make/);
      assert.match(response.json().message, /confirm taking the account over/);
      assert.equal((await accountOf('outsider@example.com'))?.uid, outsider.uid, 'not deleted');
      assert.equal(await rowOf('outsider@example.com'), undefined);
      const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
      assert.deepEqual([entry?.action, entry?.outcome], ['users.add', 'refused']);
      assert.match(entry?.detail ?? '', new RegExp(`uid ${outsider.uid}\\); left as it is`));
    });

    it('takes such an account over once the admin confirms it, writing the deletion down before it happens', async () => {
      const outsider = await signUp('outsider@example.com');
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users/outsider@example.com?takeOver=true',
        headers: await asAdmin(),
      });
      assert.equal(response.statusCode, 201, response.body);
      const uid = (await rowOf('outsider@example.com'))?.firebaseUid;
      assert.equal(uid, (await accountOf('outsider@example.com'))?.uid);
      assert.notEqual(uid, outsider.uid);
      const [added, takeOver] = await t.app.domain.audit.list({ limit: 2, offset: 0 });
      assert.deepEqual(
        [takeOver?.action, takeOver?.outcome, added?.action, added?.outcome],
        ['users.take-over-account', 'ok', 'users.add', 'ok'],
      );
      assert.match(takeOver?.detail ?? '', new RegExp(`deleting the sign-in account uid ${outsider.uid}`));
      assert.match(added?.detail ?? '', /took over an account the portal had not made/);
    });

    it('takes nothing over for an address without such an account, and refuses a malformed confirmation', async () => {
      const headers = await asAdmin();
      const plain = await t.app.inject({ method: 'POST', url: '/api/users/new@example.com?takeOver=true', headers });
      assert.equal(plain.statusCode, 201);
      const malformed = await t.app.inject({
        method: 'POST',
        url: '/api/users/other@example.com?takeOver=yes',
        headers,
      });
      assert.equal(malformed.statusCode, 400);
      assert.equal(await accountOf('other@example.com'), undefined);
    });

    it('refuses an address whose portal-made account is bound to another row', async () => {
      const headers = await asAdmin();
      // As if first@'s account had had its address changed to second@ at the identity provider.
      const account = await t.identity.createUser('second@example.com');
      await t.app.domain.users.insert({ email: 'first@example.com', firebaseUid: account.uid });
      const response = await t.app.inject({ method: 'POST', url: '/api/users/second@example.com', headers });
      assert.equal(response.statusCode, 409);
      assert.match(response.json().message, /already the account of first@example\.com/);
      assert.equal(await rowOf('second@example.com'), undefined);
    });

    it('refuses a body, creating nothing', async () => {
      const headers = await asAdmin();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users/new@example.com',
        headers,
        payload: { admin: true },
      });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().message, /takes no body/);
      assert.equal(await rowOf('new@example.com'), undefined);
      assert.equal(await accountOf('new@example.com'), undefined);
    });

    for (const [label, address, status] of BAD_EMAIL_ADDRESSES) {
      it(`answers ${status} for an address that is ${label}, creating nothing`, async () => {
        const response = await t.app.inject({ method: 'POST', url: `/api/users/${address}`, headers: await asAdmin() });
        assert.equal(response.statusCode, status);
        // Only a message and its code: never Fastify's own fields, nor the 10 KB input echoed back.
        assert.deepEqual(Object.keys(response.json()), ['message', 'code']);
        assert.ok(response.body.length < 300, response.body);
        assert.equal((await t.app.domain.users.list()).total, 1);
      });
    }
  });

  describe('POST /api/users (register)', () => {
    it('accepts the confirmation of an add without a token, changing and creating nothing', async () => {
      await t.app.domain.users.insert({ email: 'new@example.com' });
      for (const userId of ['new@example.com', ' New@Example.com']) {
        const response = await t.app.inject({ method: 'POST', url: '/api/users', payload: { userId } });
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.json(), { email: 'new@example.com', registered: true });
      }
      // An add is complete on the server: the screen's confirmation changes nothing, and writes nothing.
      assert.equal((await rowOf('new@example.com'))?.registered, false);
      assert.equal((await t.app.domain.users.list()).total, 1);
      assert.equal(await accountOf('new@example.com'), undefined);
    });

    it('answers an address nobody added exactly as a listed one, creating nothing', async () => {
      await t.app.domain.users.insert({ email: 'listed@example.com' });
      const listed = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: { userId: 'listed@example.com' },
      });
      const unlisted = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload: { userId: 'nobody@example.com' },
      });
      assert.deepEqual([listed.statusCode, unlisted.statusCode], [200, 200]);
      assert.deepEqual(listed.json(), { email: 'listed@example.com', registered: true });
      assert.deepEqual(unlisted.json(), { email: 'nobody@example.com', registered: true });
      assert.equal(await rowOf('nobody@example.com'), undefined);
    });

    for (const [label, payload] of [
      ['no userId', {}],
      ['a userId that is not an e-mail', { userId: 'nope' }],
      ['a 10 KB userId', { userId: `${'a'.repeat(10_000)}@example.com` }],
      ['an extra field', { userId: 'new@example.com', admin: true }],
    ] as const) {
      it(`answers 400 with a message for ${label}`, async () => {
        await t.app.domain.users.insert({ email: 'new@example.com' });
        const response = await t.app.inject({ method: 'POST', url: '/api/users', payload });
        assert.equal(response.statusCode, 400);
        assert.match(response.json().message, /^Invalid/);
        assert.equal((await rowOf('new@example.com'))?.admin, false);
      });
    }
  });

  describe('PUT /api/users/:email (activate)', () => {
    it('is accepted and harmless: changes nothing and reveals nothing but { email, activated }', async () => {
      await t.app.domain.users.insert({ email: 'boss@example.com', admin: true });
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/users/Boss@example.com',
        payload: { activated: true },
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { email: 'boss@example.com', activated: true });
      const row = await rowOf('boss@example.com');
      assert.deepEqual([row?.activated, row?.admin, row?.registered], [false, true, false]);
      const again = await t.app.inject({
        method: 'PUT',
        url: '/api/users/boss@example.com',
        payload: { activated: true },
      });
      assert.equal(again.statusCode, 200);
    });

    it('answers an unknown address exactly as a listed one', async () => {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/users/nobody@example.com',
        payload: { activated: true },
      });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { email: 'nobody@example.com', activated: true });
      assert.equal(await rowOf('nobody@example.com'), undefined);
    });

    it('is set by the server on the first signed-in request of the account', async () => {
      const user = await t.createAccount('user@example.com', { activated: false });
      assert.equal((await rowOf('user@example.com'))?.activated, false);
      const response = await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(user.idToken) });
      assert.equal(response.statusCode, 200);
      assert.equal((await rowOf('user@example.com'))?.activated, true);
    });

    for (const [label, payload] of [
      ['an extra field', { activated: true, admin: true }],
      ['activated: false', { activated: false }],
      ['activated as a string', { activated: 'true' }],
      ['an empty object', {}],
      ['no body', undefined],
    ] as const) {
      it(`answers 400 with a message for ${label}, changing nothing`, async () => {
        await t.app.domain.users.insert({ email: 'new@example.com' });
        const response = await t.app.inject({
          method: 'PUT',
          url: '/api/users/new@example.com',
          ...(payload ? { payload } : {}),
        });
        assert.equal(response.statusCode, 400);
        assert.match(response.json().message, /^Invalid/);
        const row = await rowOf('new@example.com');
        assert.deepEqual([row?.activated, row?.admin], [false, false]);
      });
    }
  });
});
