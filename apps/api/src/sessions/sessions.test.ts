import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { failingIdentity } from '../../test/helpers/failing-identity.ts';
import { useTestApp, type TestContext } from '../../test/helpers/test-app.ts';
import { emulator, signIn, signUp } from '../../test/helpers/tokens.ts';
import { UNBOUND_ROW_SESSIONS_DETAIL } from './end-sessions.ts';
import { SESSION_ENDED_MESSAGE } from './session-lifetime.ts';

const ADMIN = 'admin@example.com';
const USER = 'user@example.com';

/**
 * Firebase ends sessions by "tokens issued before second S are void": a sign-in in the very second of the
 * revocation would survive it. People are never that quick; the tests wait the second out.
 */
const nextSecond = () => sleep(1100);

const lookUp = (t: TestContext, email: string, idToken: string) =>
  t.app.inject({ url: `/api/users/${email}`, headers: t.bearer(idToken) });

async function assertRefreshUseless(t: TestContext, email: string, refreshToken: string) {
  const refreshed = await emulator().refresh(refreshToken);
  if (refreshed.status !== 200) return;
  const response = await lookUp(t, email, String(refreshed.body.id_token));
  assert.equal(response.statusCode, 401, 'a token refreshed after the end is refused');
}

async function auditOf(t: TestContext, action: string) {
  await t.app.domain.auditWriter.flush();
  const entries = await t.app.domain.audit.list({ limit: 50, offset: 0 });
  return entries.filter((entry) => entry.action === action).reverse();
}

describe('a session lasts as long as configured from its password sign-in, shorter for administrators', () => {
  // Seconds instead of hours, to watch it happen: users 1 h, admins 3 s (and their step-ups 2 s).
  const t = useTestApp({
    env: {
      SESSION_MAX_AGE_HOURS: '1',
      ADMIN_SESSION_MAX_AGE_HOURS: String(3 / 3600),
      ADMIN_STEP_UP_MAX_AGE_SECONDS: '2',
    },
  });

  it("refuses an admin's sign-in once it is older than ADMIN_SESSION_MAX_AGE_HOURS, however fresh the token", async () => {
    const admin = await t.createAccount(ADMIN, { admin: true, stepUp: false });
    const user = await t.createAccount(USER);
    assert.equal((await lookUp(t, ADMIN, admin.idToken)).statusCode, 200);
    await sleep(3200);
    // A token refreshed just now still carries the sign-in's auth_time.
    const refreshed = await emulator().refresh(admin.refreshToken);
    assert.equal(refreshed.status, 200);
    const idToken = String(refreshed.body.id_token);
    const refused = await lookUp(t, ADMIN, idToken);
    assert.equal(refused.statusCode, 401);
    assert.deepEqual(refused.json(), { message: SESSION_ENDED_MESSAGE, code: 'session-expired' });
    assert.equal((await lookUp(t, USER, user.idToken)).statusCode, 200, "a user's session lasts longer");
    // Signing in again starts a new session.
    assert.equal((await lookUp(t, ADMIN, (await signIn(ADMIN)).idToken)).statusCode, 200);
    await t.app.domain.auditWriter.flush();
    const refusals = await t.app.domain.audit.list({ limit: 10, offset: 0 });
    assert.match(
      refusals.find((entry) => entry.outcome === 'refused')?.detail ?? '',
      /older than the session lifetime/,
    );
  });
});

describe('ending sessions', () => {
  const t = useTestApp();

  it('"Sign out everywhere" ends every session of the person, on every device, and is audited', async () => {
    const laptop = await t.createAccount(USER);
    const phone = await signIn(USER);
    await nextSecond();
    const ended = await t.app.inject({ method: 'DELETE', url: '/api/me/sessions', headers: t.bearer(laptop.idToken) });
    assert.equal(ended.statusCode, 200, ended.body);
    assert.deepEqual(ended.json(), { email: USER, ended: true });
    for (const [device, idToken] of [
      ['laptop', laptop.idToken],
      ['phone', phone.idToken],
    ]) {
      const response = await lookUp(t, USER, idToken ?? '');
      assert.equal(response.statusCode, 401, device);
      assert.deepEqual(
        response.json(),
        { message: 'Your session has ended. Please sign in again.', code: 'session-expired' },
        device,
      );
    }
    // Firebase refuses the revoked refresh tokens; the emulator still mints ID tokens with them, whose
    // sign-in time predates the revocation, so the portal refuses those too.
    await assertRefreshUseless(t, USER, phone.refreshToken);
    assert.equal((await lookUp(t, USER, (await signIn(USER)).idToken)).statusCode, 200, 'a new sign-in works');
    assert.deepEqual(
      (await auditOf(t, 'sessions.end')).map((entry) => [entry.actor, entry.target, entry.outcome, entry.detail]),
      [[USER, USER, 'ok', 'own']],
    );
    assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/me/sessions' })).statusCode, 401);
  });

  it('an admin ends the sessions of a user from their row; only an admin may, and only for a listed user', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    const user = await t.createAccount(USER);
    const other = await t.createAccount('other@example.com');
    const endFor = (email: string, idToken: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/users/${email}/sessions`, headers: t.bearer(idToken) });
    assert.equal((await lookUp(t, USER, user.idToken)).statusCode, 200);
    await nextSecond();

    const byUser = await endFor('other@example.com', user.idToken);
    assert.equal(byUser.statusCode, 403);
    assert.equal(byUser.json().code, 'forbidden');
    assert.equal((await lookUp(t, 'other@example.com', other.idToken)).statusCode, 200);

    const ended = await endFor(USER, admin.idToken);
    assert.equal(ended.statusCode, 200);
    assert.deepEqual(ended.json(), { email: USER, ended: true });
    assert.equal((await lookUp(t, USER, user.idToken)).statusCode, 401);
    await assertRefreshUseless(t, USER, user.refreshToken);
    assert.equal((await lookUp(t, ADMIN, admin.idToken)).statusCode, 200, "the admin's own session goes on");

    assert.equal((await endFor('nobody@example.com', admin.idToken)).statusCode, 404);
    assert.deepEqual(
      (await auditOf(t, 'sessions.end')).map((entry) => [entry.actor, entry.target, entry.outcome]),
      [
        [ADMIN, USER, 'ok'],
        [ADMIN, 'nobody@example.com', 'refused'],
      ],
    );
  });
});

describe('ending the sessions of a row: only of the account it is bound to', () => {
  const t = useTestApp();
  const endFor = (email: string, idToken: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/${email}/sessions`, headers: t.bearer(idToken) });

  it('ends nothing for a row bound to no account, and leaves the account holding its address alone', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    // A row without a uid admits nobody; whoever holds its address now is not provably its person.
    const holder = await signUp('unbound@example.com');
    await t.app.domain.users.insert({ email: 'unbound@example.com', firebaseUid: null });
    await nextSecond();
    const ended = await endFor('unbound@example.com', admin.idToken);
    assert.equal(ended.statusCode, 200);
    assert.deepEqual(ended.json(), { email: 'unbound@example.com', ended: true });
    assert.equal((await t.identity.verifyIdToken(holder.idToken)).uid, holder.uid, 'its sessions go on');
    assert.deepEqual(
      (await auditOf(t, 'sessions.end')).map((entry) => [entry.target, entry.outcome, entry.detail]),
      [['unbound@example.com', 'ok', UNBOUND_ROW_SESSIONS_DETAIL]],
    );
  });

  it("ends the row's own account's sessions, not those of the account that holds its address now", async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    // The row's account had its address changed at the provider; someone else signed up with the old one.
    const own = await signUp('renamed@example.com');
    const holder = await signUp('moved@example.com');
    await t.app.domain.users.insert({ email: 'moved@example.com', firebaseUid: own.uid });
    await nextSecond();
    assert.equal((await endFor('moved@example.com', admin.idToken)).statusCode, 200);
    await assert.rejects(t.identity.verifyIdToken(own.idToken), /revoked/, "the row's account is signed out");
    assert.equal((await t.identity.verifyIdToken(holder.idToken)).uid, holder.uid, 'the other goes on');
  });
});

describe('ending sessions while the identity provider is down', () => {
  const identity = failingIdentity();
  const t = useTestApp({ wrapIdentity: identity.wrap });

  it('answers 503 with a message, records the failure, and nothing pretends to be ended', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    const user = await t.createAccount(USER);
    await nextSecond();
    identity.fail('revokeSessions');
    try {
      for (const call of [
        { url: `/api/users/${USER}/sessions`, idToken: admin.idToken },
        { url: '/api/me/sessions', idToken: user.idToken },
      ]) {
        const response = await t.app.inject({ method: 'DELETE', url: call.url, headers: t.bearer(call.idToken) });
        assert.equal(response.statusCode, 503, call.url);
        assert.equal(response.json().code, 'unavailable');
        assert.match(response.json().message, /sign-in service is unavailable/);
      }
    } finally {
      identity.heal();
    }
    assert.equal((await lookUp(t, USER, user.idToken)).statusCode, 200);
    assert.equal((await emulator().refresh(user.refreshToken)).status, 200);
    assert.deepEqual(
      (await auditOf(t, 'sessions.end')).map((entry) => [entry.actor, entry.target, entry.outcome]),
      [
        [ADMIN, USER, 'failed'],
        [USER, USER, 'failed'],
      ],
    );
  });
});
