import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
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
  /** The newest entries of these actions, newest first. */
  const auditOf = async (...actions: string[]) =>
    (await t.app.domain.audit.list({ limit: 20, offset: 0 })).filter((entry) => actions.includes(entry.action));

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
    test.mock.method(t.app.domain.users, 'transaction', async () => {
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

  it('leaves no account when the database refuses the row after a foreign account was taken over', async (test) => {
    const headers = await asAdmin();
    const foreign = await signUp('outsider@example.com');
    test.mock.method(t.app.domain.users, 'transaction', async () => {
      throw new Error('forced database failure');
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/outsider@example.com?takeOver=true',
      headers,
    });
    assert.equal(response.statusCode, 500);
    test.mock.restoreAll();
    // The foreign account was never the portal's to keep; the fresh one is deleted again like any failed add.
    assert.equal(await t.identity.findUserByEmail('outsider@example.com'), undefined);
    await assert.rejects(signIn('outsider@example.com'), /EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/);
    assert.equal(await t.app.domain.users.findByEmail('outsider@example.com'), undefined);
    // The deletion was written down before it happened, and the failure after it.
    const [failure, takeOver] = await t.app.domain.audit.list({ limit: 2, offset: 0 });
    assert.equal(takeOver?.action, 'users.take-over-account');
    assert.match(takeOver?.detail ?? '', new RegExp(`uid ${foreign.uid}`));
    assert.match(failure?.detail ?? '', /deleted again/);
  });

  it('takes over no account when the audit log cannot record it first', async (test) => {
    const headers = await asAdmin();
    const foreign = await signUp('outsider@example.com');
    test.mock.method(t.app.domain.audit, 'record', async () => {
      throw new Error('forced audit failure');
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/outsider@example.com?takeOver=true',
      headers,
    });
    test.mock.restoreAll();
    assert.equal(response.statusCode, 500);
    assert.equal((await t.identity.findUserByEmail('outsider@example.com'))?.uid, foreign.uid, 'left as it was');
    assert.equal(await t.app.domain.users.findByEmail('outsider@example.com'), undefined);
  });

  for (const call of ['deleteUser', 'revokeSessions'] as const) {
    it(`removes the user for good when ${call} fails, and deletes the account once the provider is back`, async () => {
      const headers = await asAdmin();
      const user = await t.createAccount('user@example.com');
      identity.fail(call);
      const response = await remove('user@example.com', headers);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { email: 'user@example.com', accountCleanup: 'pending' });
      // The row alone decides access: gone, whatever the provider did.
      assert.equal(await t.app.domain.users.findByEmail('user@example.com'), undefined);
      const refused = await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(user.idToken) });
      assert.equal(refused.statusCode, 401);
      const pending = await t.app.inject({ url: '/api/account-cleanups', headers });
      assert.equal(pending.json().total, 1);
      assert.equal(pending.json().items[0].email, 'user@example.com');
      assert.match(pending.json().items[0].lastError, /forced/);
      // The refused call above is audited too, by the batched writer, whenever it flushes: left out here.
      const [cleanup, removal] = await auditOf('users.remove', 'users.account-cleanup');
      assert.deepEqual(
        [removal?.action, removal?.outcome, cleanup?.action, cleanup?.outcome],
        ['users.remove', 'ok', 'users.account-cleanup', 'failed'],
      );
      assert.match(cleanup?.detail ?? '', /retried .* until done/);

      identity.heal();
      // As the background round does once the back-off has passed (or an operator's "users cleanups").
      assert.deepEqual(await t.app.domain.accountCleaner.runAll(), { done: 1, pending: 0 });
      assert.equal(await t.identity.findUserByEmail('user@example.com'), undefined);
      assert.equal((await t.app.inject({ url: '/api/account-cleanups', headers })).json().total, 0);
      const [done] = await auditOf('users.remove', 'users.account-cleanup');
      assert.deepEqual([done?.action, done?.outcome], ['users.account-cleanup', 'ok']);
      assert.match(done?.detail ?? '', new RegExp(`deleted \\(uid ${user.uid}\\) \\(attempt 2\\)`));
    });
  }

  it('retries a pending clean-up in the background until it is done', async () => {
    const headers = await asAdmin();
    await t.createAccount('user@example.com');
    identity.fail('revokeSessions');
    assert.equal((await remove('user@example.com', headers)).json().accountCleanup, 'pending');
    identity.heal();
    // Nothing asked for it: the domain's own round finds it once its first back-off (5 s) has passed.
    const started = performance.now();
    while ((await t.identity.findUserByEmail('user@example.com')) !== undefined) {
      assert.ok(performance.now() - started < 20_000, 'still not deleted after 20 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal((await t.app.inject({ url: '/api/account-cleanups', headers })).json().total, 0);
  });

  it('finishes a pending clean-up before adding the address again, or refuses the add', async () => {
    const headers = await asAdmin();
    const old = await t.createAccount('user@example.com');
    identity.fail('deleteUser');
    assert.equal((await remove('user@example.com', headers)).json().accountCleanup, 'pending');
    const refused = await add('user@example.com', headers);
    assert.equal(refused.statusCode, 503);
    assert.match(refused.json().message, /removed recently .* try adding it again in a few minutes/);
    identity.heal();
    assert.equal((await add('user@example.com', headers)).statusCode, 201);
    const account = await t.identity.findUserByEmail('user@example.com');
    assert.ok(account && account.uid !== old.uid, 'a fresh account, not the removed one');
    assert.equal((await t.app.domain.users.findByEmail('user@example.com'))?.firebaseUid, account.uid);
  });

  /**
   * The database refuses audit entries of one action: what a failover between two commits amounts to, when
   * the change is acknowledged and its entry, written after, is lost. In one transaction both go or neither.
   */
  async function refuseAuditEntries(action: string) {
    await t.database.db.execute(
      sql.raw(`create function refuse_audit_entry() returns trigger language plpgsql as $$
        begin
          if new.action = '${action}' then raise exception 'forced audit failure'; end if;
          return new;
        end $$`),
    );
    await t.database.db.execute(
      sql.raw(
        'create trigger refuse_audit_entry before insert on audit_log for each row execute function refuse_audit_entry()',
      ),
    );
    return async () => {
      await t.database.db.execute(sql.raw('drop trigger refuse_audit_entry on audit_log'));
      await t.database.db.execute(sql.raw('drop function refuse_audit_entry()'));
    };
  }

  it('adds nobody whose entry in the audit log cannot be written with the row', async () => {
    const headers = await asAdmin();
    const allow = await refuseAuditEntries('users.add');
    const response = await add('new@example.com', headers).finally(allow);
    assert.equal(response.statusCode, 500, response.body);
    assert.equal(await t.app.domain.users.findByEmail('new@example.com'), undefined);
    assert.equal(await t.identity.findUserByEmail('new@example.com'), undefined, 'its new account deleted again');

    assert.equal((await add('new@example.com', headers)).statusCode, 201);
    const [entry] = await auditOf('users.add');
    assert.deepEqual([entry?.target, entry?.outcome], ['new@example.com', 'ok']);
  });

  it('removes nobody whose entry in the audit log cannot be written with the removal', async () => {
    const headers = await asAdmin();
    await t.createAccount('user@example.com');
    const allow = await refuseAuditEntries('users.remove');
    const response = await remove('user@example.com', headers).finally(allow);
    assert.equal(response.statusCode, 500, response.body);
    assert.ok(await t.app.domain.users.findByEmail('user@example.com'), 'still on the list');

    assert.equal((await remove('user@example.com', headers)).statusCode, 200);
    const [entry] = await auditOf('users.remove');
    assert.deepEqual([entry?.target, entry?.outcome], ['user@example.com', 'ok']);
  });

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
