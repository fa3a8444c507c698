import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { signUp } from '../../test/helpers/tokens.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { BAD_EMAIL_ADDRESSES } from '../../test/helpers/bad-email-addresses.ts';
import { UNBOUND_ROW_DETAIL } from './account-cleaner.ts';
import { LAST_ADMIN_MESSAGE, SELF_REMOVAL_MESSAGE } from './user-admin.ts';
import { adminCount } from '../../test/helpers/fixtures.ts';
import { userAdminElsewhere } from '../../test/helpers/user-admin-elsewhere.ts';

describe('DELETE /api/users/:email', () => {
  const t = useTestApp();
  const asAdmin = async () => t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
  const remove = (email: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/${email}`, headers });

  it('removes the row and the sign-in account, answers { email } and audits the removal', async () => {
    const headers = await asAdmin();
    await t.createAccount('user@example.com');
    const response = await remove('%20USER@example.com', headers);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { email: 'user@example.com', accountCleanup: 'done' });
    assert.equal(await t.app.domain.users.findByEmail('user@example.com'), undefined);
    assert.equal(await t.identity.findUserByEmail('user@example.com'), undefined);
    const [cleanup, removal] = await t.app.domain.audit.list({ limit: 2, offset: 0 });
    assert.deepEqual(
      [removal?.actor, removal?.action, removal?.target, removal?.outcome],
      ['admin@example.com', 'users.remove', 'user@example.com', 'ok'],
    );
    assert.deepEqual(
      [cleanup?.actor, cleanup?.action, cleanup?.target, cleanup?.outcome],
      ['admin@example.com', 'users.account-cleanup', 'user@example.com', 'ok'],
    );
    assert.equal((await t.app.domain.accountCleanups.pending(10)).total, 0, 'nothing left in the queue');
  });

  it('removes only the row of a row bound to no account: the account holding its address is left alone', async () => {
    const headers = await asAdmin();
    // A row without a uid admits nobody; whoever holds its address now is not provably its person.
    const holder = await signUp('old@example.com');
    await t.app.domain.users.insert({ email: 'old@example.com', firebaseUid: null });
    await sleep(1100); // a revocation would void tokens issued before its second: wait that second out
    const response = await remove('old@example.com', headers);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { email: 'old@example.com', accountCleanup: 'done' });
    assert.equal(await t.app.domain.users.findByEmail('old@example.com'), undefined);
    assert.equal((await t.identity.findUserByEmail('old@example.com'))?.uid, holder.uid, 'not deleted');
    assert.equal((await t.identity.verifyIdToken(holder.idToken)).uid, holder.uid, 'its sessions go on');
    const [cleanup] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
    assert.deepEqual(
      [cleanup?.action, cleanup?.outcome, cleanup?.detail],
      ['users.account-cleanup', 'ok', UNBOUND_ROW_DETAIL],
    );
  });

  it("deletes the row's own account, not the one that holds its address now", async () => {
    const headers = await asAdmin();
    // The row's account had its address changed at the provider; someone else signed up with the old one.
    const own = await signUp('renamed@example.com');
    const holder = await signUp('moved@example.com');
    await t.app.domain.users.insert({ email: 'moved@example.com', firebaseUid: own.uid });
    assert.deepEqual((await remove('moved@example.com', headers)).json(), {
      email: 'moved@example.com',
      accountCleanup: 'done',
    });
    assert.equal(await t.identity.findUserByEmail('renamed@example.com'), undefined, "the row's account is gone");
    assert.equal((await t.identity.findUserByEmail('moved@example.com'))?.uid, holder.uid, 'the other is left');
  });

  it('removes a row whose account is already gone', async () => {
    const headers = await asAdmin();
    await t.app.domain.users.insert({ email: 'ghost@example.com', firebaseUid: 'no-such-uid' });
    assert.equal((await remove('ghost@example.com', headers)).statusCode, 200);
    assert.equal(await t.app.domain.users.findByEmail('ghost@example.com'), undefined);
  });

  it('answers 404 with a message for an address not on the list', async () => {
    const response = await remove('nobody@example.com', await asAdmin());
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), {
      message: 'nobody@example.com is not on the list of allowed users.',
      code: 'not-found',
    });
  });

  it('refuses to remove yourself with 409, keeping your row and account', async () => {
    const response = await remove('Admin@example.com', await asAdmin());
    assert.equal(response.statusCode, 409);
    assert.deepEqual(response.json(), { message: SELF_REMOVAL_MESSAGE, code: 'conflict' });
    assert.ok(await t.app.domain.users.findByEmail('admin@example.com'));
    assert.ok(await t.identity.findUserByEmail('admin@example.com'));
    const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
    assert.equal(entry?.outcome, 'refused');
  });

  it('refuses to remove the last administrator (here from the CLI, which has no account of its own)', async () => {
    await t.createAccount('admin@example.com', { admin: true });
    await assert.rejects(userAdminElsewhere(t).removeUser({ email: 'admin@example.com', actor: 'cli:test' }), {
      statusCode: 409,
      message: LAST_ADMIN_MESSAGE,
    });
    assert.ok(await t.app.domain.users.findByEmail('admin@example.com'));
    assert.ok(await t.identity.findUserByEmail('admin@example.com'));
  });

  it('leaves one administrator when the last two remove each other at once', async () => {
    const first = t.bearer((await t.createAccount('first@example.com', { admin: true })).idToken);
    const second = t.bearer((await t.createAccount('second@example.com', { admin: true })).idToken);
    const responses = await Promise.all([remove('second@example.com', first), remove('first@example.com', second)]);
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 200).length, 1, JSON.stringify(statuses));
    // The loser either still got in and met the last-admin rule, or was already off the list.
    assert.ok(
      statuses.some((status) => status === 409 || status === 401),
      JSON.stringify(statuses),
    );
    assert.equal(await adminCount(t.database), 1);
  });

  it('answers one 200 and one 404 when the same user is removed twice at once', async () => {
    const headers = await asAdmin();
    await t.createAccount('user@example.com');
    const statuses = (await Promise.all([remove('user@example.com', headers), remove('user@example.com', headers)]))
      .map((response) => response.statusCode)
      .sort();
    assert.deepEqual(statuses, [200, 404]);
  });

  for (const [label, address, status] of BAD_EMAIL_ADDRESSES) {
    it(`answers ${status} for an address that is ${label}`, async () => {
      const response = await remove(address, await asAdmin());
      assert.equal(response.statusCode, status);
      // Only a message and its code: never Fastify's own fields, nor the 10 KB input echoed back.
      assert.deepEqual(Object.keys(response.json()), ['message', 'code']);
      assert.ok(response.body.length < 300, response.body);
    });
  }
});
