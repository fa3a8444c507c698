import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_BULK_ADDRESSES } from '@portal/contract';
import { IDENTITY_UNAVAILABLE_MESSAGE } from '../dependency-unavailable.ts';
import { IdentityProviderUnavailableError, type IdentityProvider } from '../identity/identity-provider.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { signUp } from '../../test/helpers/tokens.ts';

/**
 * The identity provider, failing to create the accounts of the addresses in `unreachable` as an outage would
 * (its batch import leaves them out, as it does an address it refused), or away for every batch while
 * `importDown`. Counts the accounts created one by one.
 */
const unreachable = new Set<string>();
const provider = { importDown: false, singleCreates: 0 };
const failSome = (real: IdentityProvider): IdentityProvider => ({
  ...real,
  createUser: async (email) => {
    provider.singleCreates++;
    if (unreachable.has(email)) throw new IdentityProviderUnavailableError('forced createUser failure');
    return real.createUser(email);
  },
  createUsers: async (emails) => {
    if (provider.importDown) throw new IdentityProviderUnavailableError('forced createUsers failure');
    return real.createUsers!(emails.filter((email) => !unreachable.has(email)));
  },
  findUserByEmail: (email) => real.findUserByEmail(email),
  deleteUser: (uid) => real.deleteUser(uid),
  revokeSessions: (uid) => real.revokeSessions(uid),
});

describe('bulk add and bulk delete', () => {
  // Two anonymous calls a minute: a bulk call must spend none of them.
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '2' }, wrapIdentity: failSome });
  const asAdmin = async () => t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
  const bulk = async (path: 'bulk-add' | 'bulk-delete', emails: unknown, headers?: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/users/${path}`, headers, payload: { emails } });
  const auditOf = async (target: string) =>
    (await t.app.domain.audit.list({ limit: 50, offset: 0 })).filter((entry) => entry.target === target);

  describe('POST /api/users/bulk-add', () => {
    it('adds each address as the single add does, with a result per address in the order sent', async () => {
      const headers = await asAdmin();
      await t.createAccount('old@example.com');
      const response = await bulk(
        'bulk-add',
        [' New.One@Example.com ', 'not-an-address', 'old@example.com', 'new.one@example.com', 'two@example.com'],
        headers,
      );
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().results, [
        { input: ' New.One@Example.com ', outcome: 'added' },
        { input: 'not-an-address', outcome: 'invalid', message: 'Invalid email address' },
        { input: 'old@example.com', outcome: 'exists', message: 'old@example.com is already on the list.' },
        // The same address twice in one call is added once; the repeat gets the same answer.
        { input: 'new.one@example.com', outcome: 'added' },
        { input: 'two@example.com', outcome: 'added' },
      ]);
      for (const email of ['new.one@example.com', 'two@example.com']) {
        const row = await t.app.domain.users.findByEmail(email);
        // Created and registered, as the spec's two calls leave it; by the admin; with its sign-in account.
        assert.equal(row?.registered, true, email);
        assert.equal(row?.createdBy, 'admin@example.com');
        assert.equal(row?.firebaseUid, (await t.identity.findUserByEmail(email))?.uid);
        assert.deepEqual(
          (await auditOf(email)).map((entry) => [entry.actor, entry.action, entry.outcome]),
          [['admin@example.com', 'users.add', 'ok']],
        );
      }
      assert.deepEqual(
        (await auditOf('old@example.com')).map((entry) => [entry.action, entry.outcome]),
        [['users.add', 'refused']],
      );
    });

    it('adds many addresses in one batch: no account made one by one, each audited', async () => {
      const headers = await asAdmin();
      await t.createAccount('listed@example.com');
      const emails = Array.from({ length: 40 }, (_, i) => `batch${i}@example.com`);
      provider.singleCreates = 0;
      const response = await bulk('bulk-add', [...emails, 'listed@example.com'], headers);
      const results = response.json().results as { input: string; outcome: string }[];
      assert.equal(results.filter((result) => result.outcome === 'added').length, 40);
      assert.equal(results.at(-1)?.outcome, 'exists');
      assert.equal(provider.singleCreates, 0);
      for (const email of [emails[0]!, emails[39]!]) {
        const row = await t.app.domain.users.findByEmail(email);
        assert.equal(row?.registered, true);
        assert.equal(row?.firebaseUid, (await t.identity.findUserByEmail(email))?.uid);
        assert.deepEqual(
          (await auditOf(email)).map((entry) => [entry.actor, entry.action, entry.outcome]),
          [['admin@example.com', 'users.add', 'ok']],
        );
      }
      assert.deepEqual(
        (await auditOf('listed@example.com')).map((entry) => [entry.action, entry.outcome]),
        [['users.add', 'refused']],
      );
    });

    it('leaves what the batch cannot decide alike to the single add: an account someone else made, one the portal made', async () => {
      const headers = await asAdmin();
      const foreign = await signUp('signed-up@example.com', 'their-password');
      const leftover = await t.identity.createUser('leftover@example.com');
      const response = await bulk(
        'bulk-add',
        ['signed-up@example.com', 'leftover@example.com', 'plain@example.com'],
        headers,
      );
      const results = response.json().results as { input: string; outcome: string; message?: string }[];
      assert.deepEqual(
        results.map((result) => [result.input, result.outcome]),
        [
          ['signed-up@example.com', 'failed'],
          ['leftover@example.com', 'added'],
          ['plain@example.com', 'added'],
        ],
      );
      assert.match(results[0]!.message ?? '', /did not make/);
      // Left as it was, and the portal's own earlier account adopted, as the single add does.
      assert.equal((await t.identity.findUserByEmail('signed-up@example.com'))?.uid, foreign.uid);
      assert.equal((await t.app.domain.users.findByEmail('leftover@example.com'))?.firebaseUid, leftover.uid);
      assert.deepEqual(
        (await auditOf('signed-up@example.com')).map((entry) => [entry.action, entry.outcome]),
        [['users.add', 'refused']],
      );
    });

    it('reports every address as failed, audited, when the identity provider is away for the batch', async () => {
      const headers = await asAdmin();
      provider.importDown = true;
      try {
        const response = await bulk('bulk-add', ['away1@example.com', 'away2@example.com'], headers);
        assert.deepEqual(response.json().results, [
          { input: 'away1@example.com', outcome: 'failed', message: IDENTITY_UNAVAILABLE_MESSAGE },
          { input: 'away2@example.com', outcome: 'failed', message: IDENTITY_UNAVAILABLE_MESSAGE },
        ]);
        assert.equal(await t.app.domain.users.findByEmail('away1@example.com'), undefined);
        assert.deepEqual(
          (await auditOf('away2@example.com')).map((entry) => entry.outcome),
          ['failed'],
        );
      } finally {
        provider.importDown = false;
      }
    });

    it('spends none of the anonymous allowance of the caller’s address', async () => {
      const headers = await asAdmin();
      const emails = Array.from({ length: 30 }, (_, i) => `many${i}@example.com`);
      const response = await bulk('bulk-add', emails, headers);
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().results.filter((r: { outcome: string }) => r.outcome === 'added').length, 30);
      // The allowance of two anonymous calls a minute is still whole.
      for (let i = 0; i < 2; i++) {
        const lookup = await t.app.inject({ url: '/api/users/nobody%40example.com' });
        assert.equal(lookup.statusCode, 404);
      }
      assert.equal((await t.app.inject({ url: '/api/users/nobody%40example.com' })).statusCode, 429);
    });

    it('reports an address the identity provider could not take as failed, and adds the others', async () => {
      const headers = await asAdmin();
      unreachable.add('down@example.com');
      try {
        const response = await bulk('bulk-add', ['up@example.com', 'down@example.com'], headers);
        assert.deepEqual(response.json().results, [
          { input: 'up@example.com', outcome: 'added' },
          { input: 'down@example.com', outcome: 'failed', message: IDENTITY_UNAVAILABLE_MESSAGE },
        ]);
        assert.equal(await t.app.domain.users.findByEmail('down@example.com'), undefined);
        assert.deepEqual(
          (await auditOf('down@example.com')).map((entry) => entry.outcome),
          ['failed'],
        );
      } finally {
        unreachable.clear();
      }
    });
  });

  describe('POST /api/users/bulk-delete', () => {
    it('deletes each address as the single delete does, refusing the caller’s own, with a result each', async () => {
      const headers = await asAdmin();
      await t.createAccount('a@example.com');
      await t.createAccount('b@example.com');
      const response = await bulk(
        'bulk-delete',
        ['A@example.com', 'admin@example.com', 'gone@example.com', 'b@example.com', 'x'],
        headers,
      );
      assert.equal(response.statusCode, 200);
      const results = response.json().results;
      assert.deepEqual(
        results.map((result: { input: string; outcome: string }) => [result.input, result.outcome]),
        [
          ['A@example.com', 'deleted'],
          ['admin@example.com', 'refused'],
          ['gone@example.com', 'not-found'],
          ['b@example.com', 'deleted'],
          ['x', 'invalid'],
        ],
      );
      assert.match(results[1].message, /cannot remove your own account/);
      assert.equal(await t.app.domain.users.findByEmail('a@example.com'), undefined);
      assert.equal(await t.identity.findUserByEmail('b@example.com'), undefined);
      assert.ok(await t.app.domain.users.findByEmail('admin@example.com'));
      assert.deepEqual(
        (await auditOf('a@example.com')).map((entry) => [entry.action, entry.outcome]),
        // Newest first: the removal, then its sign-in account's deletion, as for the single delete.
        [
          ['users.account-cleanup', 'ok'],
          ['users.remove', 'ok'],
        ],
      );
    });

    it('never removes the last administrator, even when another admin removes them in the same call', async () => {
      const headers = await asAdmin();
      await t.createAccount('other-admin@example.com', { admin: true });
      const response = await bulk('bulk-delete', ['other-admin@example.com'], headers);
      assert.equal(response.json().results[0].outcome, 'deleted');
      // Now admin@example.com is the last one; another admin cannot exist to try, so the rule is checked directly.
      const last = await t.app.domain.bulkUserAdmin.removeUsers({
        inputs: ['admin@example.com'],
        actor: 'someone-else@example.com',
      });
      assert.equal(last[0]?.outcome, 'refused');
      assert.match(last[0]?.message ?? '', /last administrator/);
    });
  });

  describe('who may call them, and with what', () => {
    it('refuses anyone but an admin', async () => {
      const user = t.bearer((await t.createAccount('user@example.com')).idToken);
      for (const path of ['bulk-add', 'bulk-delete'] as const) {
        assert.equal((await bulk(path, ['x@example.com'])).statusCode, 401, path);
        assert.equal((await bulk(path, ['x@example.com'], user)).statusCode, 403, path);
      }
      assert.equal(await t.app.domain.users.findByEmail('x@example.com'), undefined);
    });

    for (const [name, emails] of [
      ['no addresses', []],
      ['too many addresses', Array.from({ length: MAX_BULK_ADDRESSES + 1 }, (_, i) => `u${i}@example.com`)],
      ['not a list', 'a@example.com'],
      ['an entry too long for an address', ['a'.repeat(400)]],
    ] as const) {
      it(`answers 400 with a message for ${name}`, async () => {
        const response = await bulk('bulk-add', emails, await asAdmin());
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 'invalid');
        assert.match(response.json().message, /emails/);
      });
    }
  });
});
