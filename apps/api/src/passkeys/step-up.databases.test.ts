import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { createSoftwareAuthenticator, enrollPasskey, stepUpWithPasskey } from '@portal/dev-stack/passkeys';
import { sql } from 'drizzle-orm';
import { fakePdf } from '../../test/helpers/fixtures.ts';
import { withRoomInTheMinute } from '../../test/helpers/minute-windows.ts';
import { INJECT_ORIGIN, useTestApp } from '../../test/helpers/test-app.ts';
import { emulator, signIn } from '../../test/helpers/tokens.ts';
import { NO_PASSKEY_MESSAGE, STEP_UP_MESSAGE, stepUpExpiredMessage } from './passkey-ceremonies.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const ADMIN = 'admin@example.com';
/** Ceremony calls an admin may make a minute here: more than any test below needs, few enough to reach. */
const CEREMONY_LIMIT = 10;
const OTHER_ADMIN = 'second-admin@example.com';

/** The token's auth_time (whole seconds), as the API reads it. */
const authTimeOf = (idToken: string) =>
  (JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as { auth_time: number }).auth_time;

/** Two password sign-ins of one account whose auth_time is the same second (tried again across a boundary). */
async function twoSignInsInOneSecond(email: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [first, second] = await Promise.all([signIn(email), signIn(email)]);
    if (authTimeOf(first.idToken) === authTimeOf(second.idToken)) return [first, second] as const;
  }
  throw new Error('five pairs of sign-ins all straddled a second');
}

describe('every admin call needs a recent passkey confirmation of the very sign-in that makes it', () => {
  const t = useTestApp({ env: { INGEST_TOKEN, RATE_LIMIT_PASSKEY_CEREMONIES_PER_MINUTE: String(CEREMONY_LIMIT) } });
  const listUsers = (idToken: string) => t.app.inject({ url: '/api/users', headers: t.bearer(idToken) });
  const refusalOf = (response: { statusCode: number; json(): unknown }) => ({
    status: response.statusCode,
    ...(response.json() as { code: string; message: string }),
  });

  it('an admin with only a password is refused until they set up a passkey, and the refusal is audited', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true, stepUp: false });
    assert.deepEqual(refusalOf(await listUsers(admin.idToken)), {
      status: 403,
      code: 'step-up-required',
      message: NO_PASSKEY_MESSAGE,
    });
    const status = await t.app.inject({ url: '/api/me/step-up', headers: t.bearer(admin.idToken) });
    assert.equal(status.statusCode, 200);
    assert.deepEqual(status.json(), { passkeys: 0, steppedUpUntil: null, maxAgeSeconds: 600, recentSignIn: true });
    assert.equal(status.headers['cache-control'], 'no-store');

    await enrollPasskey(t.callAs(admin.idToken), admin.passkey, { enrollmentCode: await t.enrollmentCode(ADMIN) });
    assert.equal((await listUsers(admin.idToken)).statusCode, 200);

    await t.app.domain.auditWriter.flush();
    const entries = await t.app.domain.audit.list({ limit: 10, offset: 0 });
    const refusal = entries.find((entry) => entry.action === 'GET /api/users');
    assert.equal(refusal?.outcome, 'refused');
    assert.match(refusal?.detail ?? '', /^403 .*; no passkey set up; uid /);
    assert.ok(entries.some((entry) => entry.action === 'passkeys.enroll' && entry.outcome === 'ok'));
  });

  it("a new sign-in with the right password is refused until it confirms; the other sign-in's confirmation does not count", async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    assert.equal((await listUsers(admin.idToken)).statusCode, 200);
    const stolenPassword = await signIn(ADMIN);
    // Only the bearer token: the thief's browser holds no secret (the token may equal the admin's string).
    const thief = { authorization: `Bearer ${stolenPassword.idToken}` };
    assert.deepEqual(refusalOf(await t.app.inject({ url: '/api/users', headers: thief })), {
      status: 403,
      code: 'step-up-required',
      message: STEP_UP_MESSAGE,
    });
    // The first sign-in is unaffected, and the second can set up no passkey of its own without the first.
    assert.equal((await listUsers(admin.idToken)).statusCode, 200);
    const ownKey = await t.app.inject({
      method: 'POST',
      url: '/api/me/passkeys/options',
      headers: thief,
    });
    assert.equal(ownKey.statusCode, 403, ownKey.body);
    assert.equal(ownKey.json().code, 'step-up-required');

    await stepUpWithPasskey(t.callAs(stolenPassword.idToken), admin.passkey);
    assert.equal((await listUsers(stolenPassword.idToken)).statusCode, 200);
  });

  it('a second password sign-in within the same second is not confirmed when the first one confirms', async () => {
    const { passkey } = await t.createAccount(ADMIN, { admin: true });
    const [admin, thief] = await twoSignInsInOneSecond(ADMIN);
    assert.equal(authTimeOf(admin.idToken), authTimeOf(thief.idToken), 'one auth_time for both sign-ins');
    await stepUpWithPasskey(t.callAs(admin.idToken), passkey);
    assert.equal((await listUsers(admin.idToken)).statusCode, 200);
    // The thief's browser never got the secret: same account, same second (the emulator's unsigned tokens may
    // even be the same string), still refused.
    const asThief = await t.app.inject({ url: '/api/users', headers: { authorization: `Bearer ${thief.idToken}` } });
    assert.deepEqual(refusalOf(asThief), {
      status: 403,
      code: 'step-up-required',
      message: STEP_UP_MESSAGE,
    });
  });

  it("a copied refresh token gets fresh ID tokens of the admin's sign-in, but not the admin's confirmation", async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    assert.equal((await listUsers(admin.idToken)).statusCode, 200);
    const copied = await emulator().refresh(admin.refreshToken);
    assert.equal(copied.status, 200);
    const idToken = String(copied.body.id_token);
    assert.equal(authTimeOf(idToken), authTimeOf(admin.idToken), 'the same sign-in');
    const asThief = await t.app.inject({ url: '/api/users', headers: { authorization: `Bearer ${idToken}` } });
    assert.deepEqual(refusalOf(asThief), { status: 403, code: 'step-up-required', message: STEP_UP_MESSAGE });
    // The admin's own browser refreshes too: with its secret (cookie or header) it stays confirmed.
    const [secret] = Object.entries(t.bearer(admin.idToken)).filter(([name]) => name === 'x-admin-step-up');
    assert.ok(secret, 'the ceremony answered with a secret');
    const withHeader = await t.app.inject({
      url: '/api/users',
      headers: { authorization: `Bearer ${idToken}`, 'x-admin-step-up': secret[1] },
    });
    assert.equal(withHeader.statusCode, 200);
    const withCookie = await t.app.inject({
      url: '/api/users',
      headers: { authorization: `Bearer ${idToken}`, cookie: `other=1; portal_step_up=${secret[1]}` },
    });
    assert.equal(withCookie.statusCode, 200);
  });

  it('the ceremony sets the secret as an HttpOnly, SameSite=Strict cookie on the API path, not in the body', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    const options = await t.app.inject({
      method: 'POST',
      url: '/api/me/step-up/options',
      headers: t.bearer(admin.idToken),
    });
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/me/step-up',
      headers: t.bearer(admin.idToken),
      payload: admin.passkey.authenticate(options.json()),
    });
    assert.equal(plain.statusCode, 200, plain.body);
    assert.deepEqual(Object.keys(plain.json() as object), ['steppedUpUntil'], 'the secret is not in the body');
    assert.match(
      String(plain.headers['set-cookie']),
      /^portal_step_up=[A-Za-z0-9_-]{43}; Path=\/api; Max-Age=28800; HttpOnly; SameSite=Strict$/,
    );
  });

  it("one admin's confirmation does nothing for another admin", async () => {
    const first = await t.createAccount(ADMIN, { admin: true });
    const second = await t.createAccount(OTHER_ADMIN, { admin: true, stepUp: false });
    await stepUpWithPasskey(t.callAs(first.idToken), first.passkey);
    assert.equal((await listUsers(second.idToken)).statusCode, 403);
    // Nor does presenting the first admin's passkey for the second.
    const enrollmentCode = await t.enrollmentCode(OTHER_ADMIN);
    const options = await t.callAs(second.idToken)('POST', '/api/me/passkeys/options', { enrollmentCode });
    assert.equal(options.status, 200);
    const borrowed = first.passkey.register(options.body as never, { reuse: first.passkey.credentials[0] });
    const response = await t.callAs(second.idToken)('POST', '/api/me/passkeys', { ...borrowed, enrollmentCode });
    assert.equal(response.status, 409);
    assert.equal((await listUsers(second.idToken)).statusCode, 403);
  });

  it('a confirmation older than ADMIN_STEP_UP_MAX_AGE_SECONDS is refused, with a message that says so', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    assert.equal((await listUsers(admin.idToken)).statusCode, 200);
    // Ten minutes and a second later, on the database's clock (which decides for every instance).
    await t.database.db.execute(
      sql`update admin_confirmations set confirmed_at = confirmed_at - interval '601 seconds'`,
    );
    assert.deepEqual(refusalOf(await listUsers(admin.idToken)), {
      status: 403,
      code: 'step-up-required',
      message: stepUpExpiredMessage(600_000),
    });
    const status = await t.app.inject({ url: '/api/me/step-up', headers: t.bearer(admin.idToken) });
    assert.equal(status.json().steppedUpUntil, null);
    await stepUpWithPasskey(t.callAs(admin.idToken), admin.passkey);
    assert.equal((await listUsers(admin.idToken)).statusCode, 200);
  });

  it("every admin route asks for it; the spec's lookup does not, and a non-admin gets the admin refusal", async () => {
    const admin = await t.createAccount(ADMIN, { admin: true, stepUp: false });
    const user = await t.createAccount('user@example.com');
    const adminCalls = [
      { method: 'GET', url: '/api/users' },
      { method: 'POST', url: '/api/users/new@example.com' },
      { method: 'PATCH', url: '/api/users/user@example.com', payload: { admin: true } },
      { method: 'DELETE', url: '/api/users/user@example.com' },
      { method: 'GET', url: '/api/audit' },
      { method: 'DELETE', url: '/api/users/user@example.com/sessions' },
      { method: 'DELETE', url: `/api/users/${OTHER_ADMIN}/passkeys` },
    ] as const;
    for (const call of adminCalls) {
      const response = await t.app.inject({ ...call, headers: t.bearer(admin.idToken) });
      assert.equal(response.statusCode, 403, `${call.method} ${call.url}: ${response.body}`);
      assert.equal(response.json().code, 'step-up-required', `${call.method} ${call.url}`);
    }
    assert.equal(await t.app.domain.users.findByEmail('new@example.com'), undefined, 'nothing was done');
    assert.equal((await t.app.domain.users.findByEmail('user@example.com'))?.admin, false);
    // The spec's own lookup and sign-in flows stay as they are.
    assert.equal(
      (await t.app.inject({ url: `/api/users/${ADMIN}`, headers: t.bearer(admin.idToken) })).statusCode,
      200,
    );
    // A user who is no admin gets the admin refusal, not a step-up: there is nothing to confirm.
    for (const url of ['/api/users', '/api/me/step-up']) {
      const response = await t.app.inject({ url, headers: t.bearer(user.idToken) });
      assert.equal(response.statusCode, 403, url);
      assert.equal(response.json().code, 'forbidden', url);
    }
    assert.equal((await t.app.inject({ url: '/api/me/step-up' })).statusCode, 401);
  });

  it('replacing an invoice as an admin needs the confirmation; the service token does not', async () => {
    const put = (parcelCode: string, headers: Record<string, string>, version = 'v1') =>
      t.app.inject({
        method: 'PUT',
        url: `/api/invoices/${parcelCode}`,
        headers: { ...headers, 'content-type': 'application/pdf' },
        payload: fakePdf(`${parcelCode} ${version}`),
      });
    const admin = await t.createAccount(ADMIN, { admin: true, stepUp: false });
    assert.equal((await put('PARCEL_1', t.bearer(INGEST_TOKEN))).statusCode, 201);
    const refused = await put('PARCEL_1', t.bearer(admin.idToken), 'v2');
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'step-up-required');
    assert.equal((await t.app.domain.invoices.findByParcelCode('PARCEL_1'))?.uploadedBy, 'service');
    await enrollPasskey(t.callAs(admin.idToken), admin.passkey, { enrollmentCode: await t.enrollmentCode(ADMIN) });
    const replaced = await put('PARCEL_1', t.bearer(admin.idToken), 'v2');
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(replaced.json().status, 'replaced');
  });

  it('another admin resets a lost passkey: the owner is signed out, sets up a new one with the code, audited', async () => {
    const owner = await t.createAccount(ADMIN, { admin: true });
    const helper = await t.createAccount(OTHER_ADMIN, { admin: true });
    const own = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${ADMIN}/passkeys`,
      headers: t.bearer(owner.idToken),
    });
    assert.equal(own.statusCode, 409);
    // Firebase ends sessions as "tokens issued before second S are void": wait out the owner's sign-in second.
    await sleep(1100);
    const reset = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${ADMIN}/passkeys`,
      headers: t.bearer(helper.idToken),
    });
    assert.equal(reset.statusCode, 200);
    const { enrollment, ...rest } = reset.json() as { enrollment: { code: string; expiresAt: string } };
    assert.deepEqual(rest, { email: ADMIN, removed: 1 });
    const expiresInMs = Date.parse(enrollment.expiresAt) - Date.now();
    assert.ok(expiresInMs > 23.9 * 3_600_000 && expiresInMs <= 24 * 3_600_000, `a day, not ${expiresInMs} ms`);
    // Whoever held a session of the owner's (the password and a session are what the thief would have) is out.
    const ended = await listUsers(owner.idToken);
    assert.equal(ended.statusCode, 401);
    assert.equal(ended.json().code, 'session-expired');
    const again = await signIn(ADMIN);
    assert.deepEqual(refusalOf(await listUsers(again.idToken)), {
      status: 403,
      code: 'step-up-required',
      message: NO_PASSKEY_MESSAGE,
    });
    // The lost authenticator no longer confirms anything; a new passkey needs the code from the reset.
    const stepUp = await t.callAs(again.idToken)('POST', '/api/me/step-up/options');
    assert.equal(stepUp.status, 403);
    const withoutCode = await t.callAs(again.idToken)('POST', '/api/me/passkeys/options');
    assert.equal(withoutCode.status, 400);
    const laptop = createSoftwareAuthenticator({ origin: INJECT_ORIGIN });
    await enrollPasskey(t.callAs(again.idToken), laptop, { enrollmentCode: enrollment.code });
    assert.equal((await listUsers(again.idToken)).statusCode, 200);
    await t.app.domain.auditWriter.flush();
    const audit = await t.app.domain.audit.list({ limit: 20, offset: 0, user: ADMIN });
    assert.deepEqual(
      audit
        .filter((entry) => entry.action === 'passkeys.reset')
        .map((entry) => [entry.actor, entry.outcome, entry.detail])
        .sort(),
      [
        [ADMIN, 'refused', 'own passkeys'],
        [OTHER_ADMIN, 'ok', '1 passkey removed'],
      ],
    );
  });

  it('passkeys are checked against the page origin and host the request came to', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true, stepUp: false });
    const call = t.callAs(admin.idToken);
    const enrollmentCode = await t.enrollmentCode(ADMIN);
    const options = await call('POST', '/api/me/passkeys/options', { enrollmentCode });
    assert.equal((options.body as { rp: { id: string } }).rp.id, 'localhost');
    const elsewhere = admin.passkey.register(options.body as never, { origin: 'http://localhost.evil.example' });
    const response = await call('POST', '/api/me/passkeys', { ...elsewhere, enrollmentCode });
    assert.equal(response.status, 400);
    assert.match((response.body as { message: string }).message, /could not be verified/);
    assert.equal((await listUsers(admin.idToken)).statusCode, 403);
  });

  it('throttles the ceremonies per administrator; a flood of refusals costs one audit row, not one each', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true, stepUp: false });
    const other = await t.createAccount(OTHER_ADMIN, { admin: true, stepUp: false });
    const options = (idToken: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/me/passkeys/options',
        headers: t.bearer(idToken),
        payload: { enrollmentCode: 'AAAA-BBBB-CCCC-DDDD' },
      });
    const statuses: number[] = [];
    // Rows fold per minute: a flood that crosses a minute's end is two rows, however few the refusals. Begun
    // early in a minute, the flood and the refusal a second later fall in one.
    await withRoomInTheMinute(15_000);
    const minuteOf = () => Math.floor(Date.now() / 60_000);
    const firstMinute = minuteOf();
    for (let call = 0; call < CEREMONY_LIMIT + 15; call++) statuses.push((await options(admin.idToken)).statusCode);
    assert.deepEqual(statuses.slice(0, CEREMONY_LIMIT), Array(CEREMONY_LIMIT).fill(400), 'a wrong code, refused');
    assert.deepEqual(statuses.slice(CEREMONY_LIMIT), Array(15).fill(429));
    // A second later the wait the answer names is shorter: the refusal still folds into the same row.
    await sleep(1100);
    const limited = await options(admin.idToken);
    assert.match(limited.json().message, /^Too many requests\. Please wait \d+ seconds and try again\.$/);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    // Per administrator: another one is not held up.
    assert.equal((await options(other.idToken)).statusCode, 400);

    const minutes = minuteOf() - firstMinute + 1;

    await t.app.domain.auditWriter.flush();
    const rows = await t.app.domain.audit.list({ limit: 100, offset: 0 });
    const countOf = (entries: typeof rows) => entries.reduce((sum, row) => sum + row.count, 0);
    const throttled = rows.filter((row) => row.detail?.includes('passkey ceremonies'));
    assert.ok(throttled.length >= 1 && throttled.length <= minutes, 'one folded row a minute');
    assert.equal(new Set(throttled.map((row) => row.at)).size, throttled.length, 'never two rows of one minute');
    assert.equal(countOf(throttled), 16);
    const wrongCodes = rows.filter((row) => row.action === 'passkeys.enroll' && row.outcome === 'refused');
    assert.equal(countOf(wrongCodes.filter((row) => row.actor === ADMIN)), CEREMONY_LIMIT);
    assert.equal(countOf(wrongCodes.filter((row) => row.actor === OTHER_ADMIN)), 1);
    assert.ok(wrongCodes.length <= minutes + 1, 'folded, not one row a refusal');
  });
});
