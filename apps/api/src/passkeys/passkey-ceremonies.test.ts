import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createSoftwareAuthenticator, type SoftwareAuthenticator } from '@portal/dev-stack/passkeys';
import { sql } from 'drizzle-orm';
import type { AuditEvent } from '../audit/repository.ts';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { DomainError } from '../domain-error.ts';
import { createUsersRepository } from '../users/repository.ts';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';
import {
  ALREADY_SET_UP_MESSAGE,
  CHALLENGE_GONE_MESSAGE,
  createPasskeyCeremonies,
  ENROLLMENT_CODE_MESSAGE,
  NO_PASSKEY_MESSAGE,
  NOT_VERIFIED_MESSAGE,
  SELF_RESET_MESSAGE,
  SIGN_IN_AGAIN_MESSAGE,
  STEP_UP_MESSAGE,
  stepUpExpiredMessage,
  UNKNOWN_PASSKEY_MESSAGE,
  WRONG_CODE_MESSAGE,
  type AdminSession,
  type Confirmation,
  type PasskeyCeremonies,
  type RelyingParty,
} from './passkey-ceremonies.ts';
import { createEnrollmentCodes, type EnrollmentCodes } from './enrollment-codes.ts';
import { createPasskeyRepository } from './passkey-repository.ts';
import { createSessionBoundStore } from './session-bound-store.ts';

const ORIGIN = 'http://localhost:8080';
const RP: RelyingParty = { id: 'localhost', name: 'Parcel Invoice Portal', origins: [ORIGIN] };
const MAX_AGE_MS = 10 * 60_000;
const ADMIN = 'admin@example.com';
const OTHER = 'other-admin@example.com';

/** A sign-in whose password was entered `agoMs` ago, to the second, as Firebase's auth_time has it. */
const signIn = (email: string, uid: string, agoMs = 0): AdminSession => ({
  email,
  uid,
  authTimeMs: Math.floor((Date.now() - agoMs) / 1000) * 1000,
});

const refusal = (kind: DomainError['kind'], message: string | RegExp) => (error: unknown) => {
  assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
  assert.equal(error.kind, kind);
  if (typeof message === 'string') assert.equal(error.message, message);
  else assert.match(error.message, message);
  return true;
};

describe('the passkey ceremonies', () => {
  let database: DatabaseHandle;
  let ceremonies: PasskeyCeremonies;
  let audit: AuditEvent[];
  /** Refusals go to the folded, batched writer: kept apart, so a test sees none was a direct insert. */
  let refusals: AuditEvent[];
  let endedSessions: string[];
  let phone: SoftwareAuthenticator;
  let codes: EnrollmentCodes;

  before(async () => {
    database = await openDatabase(await testPgliteTarget());
    const users = createUsersRepository(database.db);
    codes = createEnrollmentCodes(database.db);
    ceremonies = createPasskeyCeremonies({
      passkeys: createPasskeyRepository(database.db),
      store: createSessionBoundStore(database.db),
      enrollmentCodes: codes,
      audit: {
        bestEffort: async (event) => void audit.push(event),
        queued: (event) => void refusals.push(event),
      },
      endSessions: async ({ email }) => void endedSessions.push(email),
      findUser: (email) => users.findByEmail(email),
      stepUpMaxAgeMs: MAX_AGE_MS,
      privilegedSessionMaxAgeMs: 8 * 3_600_000,
      privilegedIdleMs: 30 * 60_000,
    });
  });
  after(() => database.close());

  beforeEach(async () => {
    audit = [];
    refusals = [];
    endedSessions = [];
    phone = createSoftwareAuthenticator({ origin: ORIGIN });
    await database.db.execute(
      sql`truncate table users, admin_passkeys, admin_confirmations, admin_enrollment_codes, webauthn_challenges restart identity cascade`,
    );
    const users = createUsersRepository(database.db);
    await users.insert({ email: ADMIN, admin: true, firebaseUid: 'uid-admin' });
    await users.insert({ email: OTHER, admin: true, firebaseUid: 'uid-other' });
  });

  /** The session's browser keeps the secret its ceremony answered with, as it would keep the cookie. */
  function keep(session: AdminSession, done: Confirmation) {
    session.stepUpSecret = done.secret;
    return done;
  }

  /** A first passkey with a code issued for it (as the promoting admin would), a further one without. */
  async function enroll(session: AdminSession, authenticator = phone) {
    const first = (await ceremonies.status(session)).passkeys === 0;
    const code = first ? (await codes.issue(session.email, 'other-admin@example.com')).code : undefined;
    const options = await ceremonies.registrationOptions(session, RP, code);
    return keep(session, await ceremonies.register(session, RP, authenticator.register(options), code));
  }

  async function stepUp(session: AdminSession, authenticator = phone) {
    const options = await ceremonies.authenticationOptions(session, RP);
    return keep(session, await ceremonies.authenticate(session, RP, authenticator.authenticate(options)));
  }

  it('sets up a first passkey right after sign-in, which also confirms that sign-in', async () => {
    const session = signIn(ADMIN, 'uid-admin');
    await assert.rejects(ceremonies.requireStepUp(session), refusal('step-up-required', NO_PASSKEY_MESSAGE));
    assert.deepEqual(await ceremonies.status(session), {
      passkeys: 0,
      steppedUpUntil: null,
      maxAgeSeconds: 600,
      recentSignIn: true,
    });

    const done = await enroll(session);
    const until = Date.parse(done.steppedUpUntil) - Date.now();
    assert.ok(until > MAX_AGE_MS - 5000 && until <= MAX_AGE_MS, `holds for the recency, not ${until} ms`);
    await ceremonies.requireStepUp(session);
    const status = await ceremonies.status(session);
    assert.equal(status.passkeys, 1);
    assert.equal(status.steppedUpUntil, done.steppedUpUntil);
    assert.deepEqual(
      audit.map((event) => [event.action, event.outcome, event.target]),
      [['passkeys.enroll', 'ok', ADMIN]],
    );
  });

  it('a first passkey needs the enrollment code: none, a wrong one, a used one or an expired one is refused', async () => {
    const session = signIn(ADMIN, 'uid-admin');
    await assert.rejects(
      ceremonies.registrationOptions(session, RP, undefined),
      refusal('invalid', ENROLLMENT_CODE_MESSAGE),
    );
    const { code } = await codes.issue(ADMIN, OTHER);
    assert.match(code, /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    await assert.rejects(
      ceremonies.registrationOptions(session, RP, 'AAAA-BBBB-CCCC-DDDD'),
      refusal('invalid', WRONG_CODE_MESSAGE),
    );
    // Another administrator's code is not this one's.
    const { code: othersCode } = await codes.issue(OTHER, ADMIN);
    await assert.rejects(
      ceremonies.registrationOptions(session, RP, othersCode),
      refusal('invalid', WRONG_CODE_MESSAGE),
    );
    // The options do not use the code up; the finished ceremony does. Typed in lower case with spaces, it still counts.
    const typed = code.toLowerCase().replace(/-/g, ' ');
    const options = await ceremonies.registrationOptions(session, RP, typed);
    const answer = phone.register(options);
    // Without the code the answer is refused, and the challenge with it.
    await assert.rejects(
      ceremonies.register(session, RP, answer, undefined),
      refusal('invalid', ENROLLMENT_CODE_MESSAGE),
    );
    const retry = phone.register(await ceremonies.registrationOptions(session, RP, typed));
    keep(session, await ceremonies.register(session, RP, retry, typed));
    assert.equal(await codes.holds(ADMIN, code), false, 'used once');

    // Reset: the old code stays used; the new one works until it runs out.
    const { enrollment } = await ceremonies.resetPasskeys({ email: ADMIN, actor: OTHER });
    await assert.rejects(ceremonies.registrationOptions(session, RP, code), refusal('invalid', WRONG_CODE_MESSAGE));
    await database.db.execute(sql`update admin_enrollment_codes set expires_at = now() - interval '1 second'`);
    await assert.rejects(
      ceremonies.registrationOptions(session, RP, enrollment.code),
      refusal('invalid', WRONG_CODE_MESSAGE),
    );
    assert.ok(refusals.every((event) => event.action === 'passkeys.enroll' && event.outcome === 'refused'));
    assert.equal(refusals.length, 6);
    assert.ok(
      audit.every((event) => event.outcome === 'ok'),
      'no refusal was written one by one',
    );
  });

  it('two racing set-ups with one code: only one passkey is made', async () => {
    const session = signIn(ADMIN, 'uid-admin');
    const { code } = await codes.issue(ADMIN, OTHER);
    const laptop = createSoftwareAuthenticator({ origin: ORIGIN });
    const answers = [
      phone.register(await ceremonies.registrationOptions(session, RP, code)),
      laptop.register(await ceremonies.registrationOptions(session, RP, code)),
    ];
    const outcomes = await Promise.allSettled(answers.map((answer) => ceremonies.register(session, RP, answer, code)));
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ['fulfilled', 'rejected']);
    assert.equal((await ceremonies.status(session)).passkeys, 1);
  });

  it('a confirmation belongs to the secret its ceremony answered with, not to the sign-in alone', async () => {
    const browser = signIn(ADMIN, 'uid-admin');
    await enroll(browser);
    await ceremonies.requireStepUp(browser);
    // The same uid and auth_time (a second sign-in in the same second, a copied refresh token) without the
    // secret, or with a made-up one, is not confirmed.
    const sameSecond: AdminSession = { ...browser, stepUpSecret: undefined };
    await assert.rejects(ceremonies.requireStepUp(sameSecond), refusal('step-up-required', STEP_UP_MESSAGE));
    const guessed: AdminSession = { ...browser, stepUpSecret: 'x'.repeat(43) };
    await assert.rejects(ceremonies.requireStepUp(guessed), refusal('step-up-required', STEP_UP_MESSAGE));
    // The secret is worth nothing to another sign-in of the same account either.
    const later: AdminSession = { ...signIn(ADMIN, 'uid-admin', -2000), stepUpSecret: browser.stepUpSecret };
    await assert.rejects(ceremonies.requireStepUp(later), refusal('step-up-required', STEP_UP_MESSAGE));
    // Each ceremony hands out a new secret; the earlier one keeps holding until it runs out.
    const earlier = browser.stepUpSecret;
    await stepUp(browser);
    assert.notEqual(browser.stepUpSecret, earlier);
    await ceremonies.requireStepUp({ ...browser, stepUpSecret: earlier });
  });

  it('asks for the password again before a first passkey when the sign-in is older than the recency', async () => {
    const stale = signIn(ADMIN, 'uid-admin', MAX_AGE_MS + 60_000);
    assert.equal((await ceremonies.status(stale)).recentSignIn, false);
    const { code } = await codes.issue(ADMIN, OTHER);
    await assert.rejects(
      ceremonies.registrationOptions(stale, RP, code),
      refusal('step-up-required', SIGN_IN_AGAIN_MESSAGE),
    );
    assert.equal(refusals[0]?.outcome, 'refused');
    assert.equal(await createPasskeyRepository(database.db).countFor(ADMIN), 0);
  });

  it('a new sign-in with the right password is not confirmed until it uses the passkey', async () => {
    await enroll(signIn(ADMIN, 'uid-admin', 60_000));
    const tomorrow = signIn(ADMIN, 'uid-admin');
    await assert.rejects(ceremonies.requireStepUp(tomorrow), refusal('step-up-required', STEP_UP_MESSAGE));
    assert.equal((await ceremonies.status(tomorrow)).steppedUpUntil, null);

    await stepUp(tomorrow);
    await ceremonies.requireStepUp(tomorrow);
    assert.deepEqual(
      audit.map((event) => [event.action, event.outcome]),
      [
        ['passkeys.enroll', 'ok'],
        ['passkeys.step-up', 'ok'],
      ],
    );
  });

  it('a confirmation runs out after the recency, counted on the database clock', async () => {
    const session = signIn(ADMIN, 'uid-admin');
    await enroll(session);
    await database.db.execute(
      sql`update admin_confirmations set confirmed_at = now() - make_interval(secs => ${MAX_AGE_MS / 1000 + 1})`,
    );
    await assert.rejects(
      ceremonies.requireStepUp(session),
      refusal('step-up-required', stepUpExpiredMessage(MAX_AGE_MS)),
    );
    assert.match(stepUpExpiredMessage(MAX_AGE_MS), /it lasts 10 minutes/);
    await stepUp(session);
    await ceremonies.requireStepUp(session);
  });

  it('each challenge answers once: a replayed assertion is refused', async () => {
    const session = signIn(ADMIN, 'uid-admin');
    await enroll(session);
    const assertion = phone.authenticate(await ceremonies.authenticationOptions(session, RP));
    await ceremonies.authenticate(session, RP, assertion);
    await assert.rejects(ceremonies.authenticate(session, RP, assertion), refusal('invalid', CHALLENGE_GONE_MESSAGE));
  });

  it('a challenge belongs to the sign-in it was given to, and runs out', async () => {
    const first = signIn(ADMIN, 'uid-admin', 60_000);
    await enroll(first);
    const second = signIn(ADMIN, 'uid-admin');
    const forFirst = phone.authenticate(await ceremonies.authenticationOptions(first, RP));
    await assert.rejects(ceremonies.authenticate(second, RP, forFirst), refusal('invalid', CHALLENGE_GONE_MESSAGE));
    await assert.rejects(ceremonies.requireStepUp(second), refusal('step-up-required', STEP_UP_MESSAGE));

    const late = phone.authenticate(await ceremonies.authenticationOptions(second, RP));
    await database.db.execute(sql`update webauthn_challenges set expires_at = now() - interval '1 second'`);
    await assert.rejects(ceremonies.authenticate(second, RP, late), refusal('invalid', CHALLENGE_GONE_MESSAGE));

    const made = await ceremonies.authenticationOptions(second, RP);
    const fabricated = phone.authenticate({ ...made, challenge: Buffer.from('never issued').toString('base64url') });
    await assert.rejects(ceremonies.authenticate(second, RP, fabricated), refusal('invalid', CHALLENGE_GONE_MESSAGE));
  });

  it('refuses assertions from another page, without user verification, or by a cloned key', async () => {
    const session = signIn(ADMIN, 'uid-admin');
    await enroll(session);
    const phishing = phone.authenticate(await ceremonies.authenticationOptions(session, RP), {
      origin: 'http://localhost.evil.example',
    });
    await assert.rejects(ceremonies.authenticate(session, RP, phishing), refusal('invalid', NOT_VERIFIED_MESSAGE));
    const unverified = phone.authenticate(await ceremonies.authenticationOptions(session, RP), { userVerified: false });
    await assert.rejects(ceremonies.authenticate(session, RP, unverified), refusal('invalid', NOT_VERIFIED_MESSAGE));

    await stepUp(session);
    // A copy of the key whose counter is behind the one the portal saw: a clone.
    const credential = phone.credentials[0];
    assert.ok(credential);
    credential.signCount = 0;
    await assert.rejects(stepUp(session), refusal('invalid', NOT_VERIFIED_MESSAGE));
    const reasons = refusals.map((event) => event.detail);
    assert.equal(reasons.length, 3);
    assert.match(reasons[0] ?? '', /origin/i);
    assert.match(reasons[1] ?? '', /user.*verif/i);
    assert.match(reasons[2] ?? '', /counter/i);
  });

  it("another admin's passkey does not confirm this admin", async () => {
    const mine = signIn(ADMIN, 'uid-admin');
    await enroll(mine);
    const theirs = createSoftwareAuthenticator({ origin: ORIGIN });
    await enroll(signIn(OTHER, 'uid-other'), theirs);
    const options = await ceremonies.authenticationOptions(mine, RP);
    const assertion = theirs.authenticate({ ...options, allowCredentials: [] });
    await assert.rejects(ceremonies.authenticate(mine, RP, assertion), refusal('invalid', UNKNOWN_PASSKEY_MESSAGE));
  });

  it('a second passkey needs the first one: a sign-in with only the password cannot add its own', async () => {
    await enroll(signIn(ADMIN, 'uid-admin', 60_000));
    const attacker = signIn(ADMIN, 'uid-admin');
    const laptop = createSoftwareAuthenticator({ origin: ORIGIN });
    await assert.rejects(
      ceremonies.registrationOptions(attacker, RP, undefined),
      refusal('step-up-required', STEP_UP_MESSAGE),
    );

    await stepUp(attacker);
    await enroll(attacker, laptop);
    assert.equal((await ceremonies.status(attacker)).passkeys, 2);
    // The browser would not make a second passkey on this authenticator (excludeCredentials); should a
    // faulty one present the same credential again, it is refused and the first stays as it was.
    const options = await ceremonies.registrationOptions(attacker, RP, undefined);
    const again = laptop.register(options, { reuse: laptop.credentials[0] });
    await assert.rejects(
      ceremonies.register(attacker, RP, again, undefined),
      refusal('conflict', ALREADY_SET_UP_MESSAGE),
    );
    assert.equal((await ceremonies.status(attacker)).passkeys, 2);
  });

  it('another admin resets the passkeys: sessions end, passkeys and confirmations go, a new code, audited', async () => {
    const session = signIn(ADMIN, 'uid-admin');
    await enroll(session);
    await assert.rejects(
      ceremonies.resetPasskeys({ email: ADMIN, actor: ADMIN }),
      refusal('conflict', SELF_RESET_MESSAGE),
    );
    const reset = await ceremonies.resetPasskeys({ email: ADMIN, actor: OTHER });
    assert.deepEqual({ ...reset, enrollment: undefined }, { email: ADMIN, removed: 1, enrollment: undefined });
    assert.equal(await codes.holds(ADMIN, reset.enrollment.code), true);
    assert.deepEqual(endedSessions, [ADMIN]);
    await assert.rejects(ceremonies.requireStepUp(session), refusal('step-up-required', NO_PASSKEY_MESSAGE));
    assert.equal((await ceremonies.status(session)).passkeys, 0);
    await assert.rejects(
      ceremonies.resetPasskeys({ email: 'nobody@example.com', actor: OTHER }),
      refusal('not-found', /not on the list/),
    );
    assert.deepEqual(
      [...audit, ...refusals]
        .filter((event) => event.action.startsWith('passkeys.') && event.action !== 'passkeys.enroll')
        .map((event) => [event.action, event.actor, event.outcome, event.detail ?? null]),
      [
        ['passkeys.reset', OTHER, 'ok', '1 passkey removed'],
        ['passkeys.enrollment-code', OTHER, 'ok', null],
        ['passkeys.reset', ADMIN, 'refused', 'own passkeys'],
        ['passkeys.reset', OTHER, 'refused', 'not on the list'],
      ],
    );
  });

  it('removing the allowlist row removes its passkeys', async () => {
    await enroll(signIn(ADMIN, 'uid-admin'));
    await createUsersRepository(database.db).remove(ADMIN);
    assert.equal(await createPasskeyRepository(database.db).countFor(ADMIN), 0);
  });
});
