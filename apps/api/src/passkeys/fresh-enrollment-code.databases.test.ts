import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Approval, EnrollmentCodeShown } from '@portal/contract';
import { enrollPasskey } from '@portal/dev-stack/passkeys';
import { sql } from 'drizzle-orm';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { HAS_PASSKEY_MESSAGE, NO_PASSKEY_ROLE_MESSAGE } from './passkey-ceremonies.ts';

describe('a fresh enrollment code, without ending anyone’s sessions', () => {
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '10000' } });
  type Account = Awaited<ReturnType<typeof t.createAccount>>;

  const as = (account: Account) => t.bearer(account.idToken);
  const freshCode = (by: Account | undefined, email: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/users/${email}/enrollment-code`,
      ...(by ? { headers: as(by) } : {}),
    });
  const approve = (by: Account, id: number) =>
    t.app.inject({ method: 'POST', url: `/api/approvals/${id}/approve`, headers: as(by) });
  const codesFor = async (email: string) => {
    const result = (await t.database.db.execute(
      sql`select issued_by from admin_enrollment_codes where email = ${email}`,
    )) as unknown as { rows: { issued_by: string }[] };
    return result.rows.map((row) => row.issued_by);
  };
  const auditOf = async (action: string, target?: string) => {
    // Refusals are written in the background: flushed before reading.
    await t.app.domain.auditWriter.flush();
    return (await t.app.domain.audit.list({ limit: 200, offset: 0 }))
      .filter((entry) => entry.action === action && (target === undefined || entry.target === target))
      .map((entry) => `${entry.actor} ${entry.target} ${entry.outcome}`);
  };
  /** A call only a person whose sessions go on may make: their own passkey set-up, with their old sign-in. */
  const enrollsWith = async (account: Account, enrollmentCode: string) =>
    enrollPasskey(t.callAs(account.idToken), account.passkey, { enrollmentCode }).then(
      () => true,
      () => false,
    );

  it('gives a finance user a new code at once: the old one stops working, the sign-in they have goes on', async () => {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const finance = await t.createAccount('finance@example.com', { finance: true, stepUp: false });
    const oldCode = await t.enrollmentCode('finance@example.com');

    const response = await freshCode(admin, 'finance@example.com');
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['cache-control'], 'no-store');
    const shown = response.json<EnrollmentCodeShown>();
    assert.equal(shown.email, 'finance@example.com');
    assert.match(shown.enrollment.code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    assert.ok(Date.parse(shown.enrollment.expiresAt) > Date.now() + 23 * 3_600_000);
    assert.deepEqual(await codesFor('finance@example.com'), ['admin@example.com'], 'one live code, the new one');

    assert.equal(await enrollsWith(finance, oldCode), false, 'the code they had stops working');
    assert.equal(await enrollsWith(finance, shown.enrollment.code), true, 'the new one works, in the same sign-in');
    assert.deepEqual(await auditOf('passkeys.enrollment-code', 'finance@example.com'), [
      'admin@example.com finance@example.com ok',
      'cli:test finance@example.com ok',
    ]);
    assert.deepEqual(await auditOf('passkeys.reset'), [], 'nothing was reset');
  });

  it('for an administrator, waits for a second one, who alone sees the code', async () => {
    const asker = await t.createAccount('asker@example.com', { admin: true });
    const approver = await t.createAccount('approver@example.com', { admin: true });
    const newcomer = await t.createAccount('newcomer@example.com', { admin: true, stepUp: false });
    const firstCode = await t.enrollmentCode('newcomer@example.com');

    const asked = await freshCode(asker, 'newcomer@example.com');
    assert.equal(asked.statusCode, 202, asked.body);
    assert.doesNotMatch(asked.body, /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/);
    const { approval } = asked.json<{ approval: Approval }>();
    assert.equal(approval.kind, 'enrollment-code');
    assert.equal(approval.email, 'newcomer@example.com');
    assert.deepEqual(await codesFor('newcomer@example.com'), ['cli:test'], 'nothing changed yet');
    assert.equal((await freshCode(asker, 'newcomer@example.com')).statusCode, 409, 'one request at a time');

    assert.equal((await approve(asker, approval.id)).statusCode, 403, 'not by whoever asked');
    const approved = await approve(approver, approval.id);
    assert.equal(approved.statusCode, 200, approved.body);
    const code = approved.json<{ enrollment: { code: string } }>().enrollment.code;
    assert.deepEqual(await codesFor('newcomer@example.com'), ['approver@example.com']);
    assert.equal(await enrollsWith(newcomer, firstCode), false);
    assert.equal(await enrollsWith(newcomer, code), true);
  });

  it('is made at once where nobody else could approve', async () => {
    const only = await t.createAccount('only@example.com', { admin: true });
    await t.createAccount('second@example.com', { admin: true, stepUp: false });
    const response = await freshCode(only, 'second@example.com');
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(await codesFor('second@example.com'), ['only@example.com']);
  });

  it('refuses someone with a passkey, without a role that needs one, or not on the list, keeping what they have', async () => {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const colleague = await t.createAccount('colleague@example.com', { admin: true });
    await t.createAccount('finance@example.com', { finance: true });
    await t.createAccount('user@example.com');

    for (const [email, status, message] of [
      ['colleague@example.com', 409, HAS_PASSKEY_MESSAGE('colleague@example.com')],
      ['finance@example.com', 409, HAS_PASSKEY_MESSAGE('finance@example.com')],
      ['user@example.com', 409, NO_PASSKEY_ROLE_MESSAGE('user@example.com')],
      ['nobody@example.com', 404, undefined],
    ] as const) {
      const response = await freshCode(admin, email);
      assert.equal(response.statusCode, status, `${email}: ${response.body}`);
      if (message) assert.equal(response.json().message, message);
      assert.deepEqual(await codesFor(email), [], email);
    }
    // Their passkey still confirms them.
    assert.equal((await t.app.inject({ url: '/api/users', headers: as(colleague) })).statusCode, 200);
    assert.equal((await freshCode(admin, 'admin@example.com')).statusCode, 409, 'nor one’s own');
    const refused = await auditOf('passkeys.enrollment-code');
    assert.ok(refused.includes('admin@example.com user@example.com refused'), String(refused));
  });

  it('is an admin call with a passkey confirmation: refused to anyone else', async () => {
    const user = await t.createAccount('user@example.com');
    const finance = await t.createAccount('finance@example.com', { finance: true });
    const unconfirmed = await t.createAccount('unconfirmed@example.com', { admin: true, stepUp: false });
    await t.createAccount('target@example.com', { finance: true, stepUp: false });
    assert.equal((await freshCode(undefined, 'target@example.com')).statusCode, 401);
    assert.equal((await freshCode(user, 'target@example.com')).statusCode, 403);
    assert.equal((await freshCode(finance, 'target@example.com')).statusCode, 403);
    const withoutPasskey = await freshCode(unconfirmed, 'target@example.com');
    assert.equal(withoutPasskey.statusCode, 403, withoutPasskey.body);
    assert.deepEqual(await codesFor('target@example.com'), []);
  });
});
