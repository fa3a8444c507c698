import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enrollPasskey } from '@portal/dev-stack/passkeys';
import { failingIdentity } from '../../test/helpers/failing-identity.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { signIn, signUp } from '../../test/helpers/tokens.ts';
import { EXIT, type CliOutput } from './cli-io.ts';
import { parseUsersArgs, runUsersCommand } from './users.ts';

describe('npm run portal -- users', () => {
  const identity = failingIdentity();
  const t = useTestApp({ wrapIdentity: identity.wrap });

  async function cli(...args: string[]) {
    const output = { out: '', err: '' };
    const io: CliOutput = {
      out: (line) => void (output.out += `${line}\n`),
      err: (line) => void (output.err += `${line}\n`),
    };
    const command = parseUsersArgs(args);
    if ('error' in command) return { code: EXIT.usage, ...output, err: command.error };
    const code = await runUsersCommand(command, t.domain, io);
    return { code, ...output };
  }

  it('adds an administrator with a sign-in account, registered, and audits it under the operator', async () => {
    assert.deepEqual(parseUsersArgs(['add', 'boss@example.com', '--admin']), {
      error: '"users add --admin" needs --operator <your name>, for the audit log.',
    });
    const result = await cli('add', ' Boss@Example.com', '--admin', '--operator=Jane Doe');
    assert.equal(result.code, EXIT.ok, result.err);
    assert.match(result.out, /^Added boss@example\.com as an administrator\./);
    assert.match(result.out, /\nEnrollment code for boss@example\.com: [0-9A-Z]{4}(-[0-9A-Z]{4}){3}\n/);
    const row = await t.app.domain.users.findByEmail('boss@example.com');
    assert.deepEqual([row?.admin, row?.registered, row?.activated], [true, true, false]);
    assert.equal(row?.firebaseUid, (await t.identity.findUserByEmail('boss@example.com'))?.uid);
    const entries = await t.app.domain.audit.list({ limit: 5, offset: 0 });
    assert.deepEqual(entries.map((entry) => [entry.action, entry.actor]).sort(), [
      ['passkeys.enrollment-code', 'cli:Jane Doe'],
      ['users.add', 'cli:Jane Doe'],
    ]);
  });

  it('issues an enrollment code for the first administrator at go-live, which sets up their passkey once', async () => {
    const admin = await t.createAccount('boss@example.com', { admin: true, stepUp: false });
    assert.deepEqual(parseUsersArgs(['enrollment-code', 'boss@example.com', '--operator']), {
      error: '--operator needs a name, e.g. --operator "Jane Doe".',
    });
    const result = await cli('enrollment-code', 'boss@example.com', '--operator', 'Jane Doe');
    assert.equal(result.code, EXIT.ok, result.err);
    const code = /^Enrollment code for boss@example\.com: ([0-9A-Z-]{19})\n/.exec(result.out)?.[1];
    assert.ok(code, result.out);
    await enrollPasskey(t.callAs(admin.idToken), admin.passkey, { enrollmentCode: code });
    assert.equal((await t.app.inject({ url: '/api/users', headers: t.bearer(admin.idToken) })).statusCode, 200);
    // One passkey later, a code is no longer what they need: a reset is.
    const again = await cli('enrollment-code', 'boss@example.com', '--operator', 'Jane Doe');
    assert.equal(again.code, EXIT.refused);
    assert.match(again.err, /already has a passkey/);
    await cli('add', 'user@example.com');
    const notAdmin = await cli('enrollment-code', 'user@example.com', '--operator', 'Jane Doe');
    assert.equal(
      notAdmin.err,
      'user@example.com is neither an administrator nor a finance user, so they need no passkey.\n',
    );
  });

  it('refuses an account someone signed up for before the add, and takes it over with --take-over', async () => {
    const squatter = await signUp('early@example.com', 'squatter-password');
    const refused = await cli('add', 'early@example.com');
    assert.equal(refused.code, EXIT.refused);
    assert.match(refused.err, /did not make .* --take-over/s);
    assert.equal((await t.identity.findUserByEmail('early@example.com'))?.uid, squatter.uid, 'left alone');

    const result = await cli('add', 'early@example.com', '--take-over');
    assert.equal(result.code, EXIT.ok, result.err);
    const row = await t.app.domain.users.findByEmail('early@example.com');
    assert.equal(row?.firebaseUid, (await t.identity.findUserByEmail('early@example.com'))?.uid);
    assert.notEqual(row?.firebaseUid, squatter.uid, 'a fresh account, not the one made before');
    await assert.rejects(
      signIn('early@example.com', 'squatter-password'),
      /INVALID_LOGIN_CREDENTIALS|INVALID_PASSWORD/,
    );
  });

  it('removes an address while the identity provider is down, and "users cleanups" finishes the job', async () => {
    await cli('add', 'user@example.com');
    identity.fail('deleteUser');
    try {
      const removed = await cli('remove', 'user@example.com');
      assert.equal(removed.code, EXIT.ok, removed.err);
      assert.match(removed.out, /they can no longer sign in.*deleted later/s);
      assert.equal(await t.app.domain.users.findByEmail('user@example.com'), undefined);
      const stillDown = await cli('cleanups');
      assert.equal(stillDown.code, EXIT.unavailable);
      assert.match(stillDown.out, /user@example\.com .*forced deleteUser failure/);
      assert.match(stillDown.err, /1 account clean-up pending/);
    } finally {
      identity.heal();
    }
    const finished = await cli('cleanups');
    assert.equal(finished.code, EXIT.ok, finished.err);
    assert.match(finished.out, /Deleted the sign-in accounts of 1 removed user/);
    assert.match(finished.err, /0 account clean-ups pending/);
    assert.equal(await t.identity.findUserByEmail('user@example.com'), undefined);
  });

  it('lists every address with its status, the count on stderr', async () => {
    await cli('add', 'boss@example.com', '--admin', '--operator', 'Jane Doe');
    await cli('add', 'user@example.com');
    const result = await cli('list');
    assert.equal(result.code, EXIT.ok);
    assert.deepEqual(result.out.trimEnd().split('\n'), [
      'boss@example.com  admin, invited',
      'user@example.com  user, invited',
    ]);
    assert.equal(result.err, '2 allowed users\n');
  });

  it('removes an address and its account', async () => {
    await cli('add', 'boss@example.com', '--admin', '--operator', 'Jane Doe');
    await cli('add', 'user@example.com');
    const result = await cli('remove', 'user@example.com');
    assert.equal(result.code, EXIT.ok, result.err);
    assert.equal(await t.app.domain.users.findByEmail('user@example.com'), undefined);
    assert.equal(await t.identity.findUserByEmail('user@example.com'), undefined);
  });

  it('exits 1 with the reason for a duplicate, an unknown address and the last administrator', async () => {
    await cli('add', 'boss@example.com', '--admin', '--operator', 'Jane Doe');
    assert.deepEqual(await cli('add', 'boss@example.com'), {
      code: EXIT.refused,
      out: '',
      err: 'boss@example.com is already on the list.\n',
    });
    const unknown = await cli('remove', 'nobody@example.com');
    assert.equal(unknown.code, EXIT.refused);
    assert.match(unknown.err, /not on the list/);
    const last = await cli('remove', 'boss@example.com');
    assert.equal(last.code, EXIT.refused);
    assert.match(last.err, /last administrator/);
  });

  it('makes an address an administrator and back, audited, but never the last one', async () => {
    await cli('add', 'boss@example.com', '--admin', '--operator', 'Jane Doe');
    await cli('add', 'user@example.com');
    const on = await cli('admin', 'user@example.com', '--on', '--operator', 'Jane Doe');
    assert.equal(on.code, EXIT.ok, on.err);
    assert.match(on.out, /^user@example\.com is now an administrator\.\nEnrollment code for user@example\.com: /);
    assert.equal((await t.app.domain.users.findByEmail('user@example.com'))?.admin, true);
    assert.equal((await cli('admin', 'boss@example.com', '--off', '--operator', 'Jane Doe')).code, EXIT.ok);
    const last = await cli('admin', 'user@example.com', '--off', '--operator', 'Jane Doe');
    assert.equal(last.code, EXIT.refused);
    assert.match(last.err, /last administrator/);
    const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
    assert.deepEqual(
      [entry?.action, entry?.outcome, entry?.target],
      ['users.remove-admin', 'refused', 'user@example.com'],
    );
    assert.deepEqual(parseUsersArgs(['admin', 'a@example.com', '--operator', 'Jane Doe']), {
      error: '"users admin" takes exactly one of --on or --off.',
    });
  });

  it('gives and takes the finance role, audited under the operator, and lists it', async () => {
    await cli('add', 'user@example.com');
    const on = await cli('finance', 'user@example.com', '--on', '--operator', 'Jane Doe');
    assert.equal(on.code, EXIT.ok, on.err);
    // The role reads every invoice, so it needs a passkey: the operator receives the first one's code.
    const code =
      /^user@example\.com now has the finance role\.\nEnrollment code for user@example\.com: ([0-9A-Z-]{19})\n/.exec(
        on.out,
      )?.[1];
    assert.ok(code, on.out);
    assert.equal((await t.app.domain.users.findByEmail('user@example.com'))?.finance, true);
    assert.match((await cli('list')).out, /user@example\.com {2}user, finance, /);
    const off = await cli('finance', 'user@example.com', '--off', '--operator', 'Jane Doe');
    assert.equal(off.out, 'user@example.com no longer has the finance role.\n');
    const unknown = await cli('finance', 'nobody@example.com', '--on', '--operator', 'Jane Doe');
    assert.equal(unknown.code, EXIT.refused);
    const entries = await t.app.domain.audit.list({ limit: 4, offset: 0 });
    assert.deepEqual(
      entries.map((entry) => [entry.action, entry.outcome, entry.actor]),
      [
        ['users.grant-finance', 'refused', 'cli:Jane Doe'],
        ['users.remove-finance', 'ok', 'cli:Jane Doe'],
        ['passkeys.enrollment-code', 'ok', 'cli:Jane Doe'],
        ['users.grant-finance', 'ok', 'cli:Jane Doe'],
      ],
    );
    assert.deepEqual(parseUsersArgs(['finance', 'a@example.com', '--on']), {
      error: '"users finance" needs --operator <your name>, for the audit log.',
    });
    assert.deepEqual(parseUsersArgs(['finance', 'a@example.com', '--operator', 'Jane Doe']), {
      error: '"users finance" takes exactly one of --on or --off.',
    });
  });

  it('exits 69 and changes nothing when the identity provider is down', async () => {
    identity.fail('createUser');
    try {
      const result = await cli('add', 'user@example.com');
      assert.equal(result.code, EXIT.unavailable);
      assert.match(result.err, /could not be reached.*nothing was changed/);
      assert.equal(await t.app.domain.users.findByEmail('user@example.com'), undefined);
    } finally {
      identity.heal();
    }
  });

  it('adopts an address into the company directory, audited under the operator; once', async () => {
    await t.createAccount('kept@example.com');
    const adopted = await cli('adopt', 'kept@example.com', '--operator', 'Jane Doe');
    assert.equal(adopted.code, EXIT.ok, adopted.err);
    assert.match(adopted.out, /kept@example.com is now kept by the company directory/);
    assert.equal((await t.app.domain.users.findByEmail('kept@example.com'))?.managedBy, 'scim');
    const [entry] = (await t.app.domain.audit.list({ limit: 10, offset: 0 })).filter(
      (each) => each.action === 'users.directory-update',
    );
    assert.deepEqual(
      [entry?.actor, entry?.target, entry?.detail],
      ['cli:Jane Doe', 'kept@example.com', 'now kept by the company directory'],
    );
    assert.match((await cli('adopt', 'kept@example.com', '--operator', 'Jane Doe')).out, /already/);
    const unknown = await cli('adopt', 'nobody@example.com', '--operator', 'Jane Doe');
    assert.equal(unknown.code, EXIT.refused);
    assert.match(unknown.err, /nobody@example.com is not on the list/);
    assert.match((await cli('adopt', 'kept@example.com')).err, /needs --operator/);
  });

  for (const [args, message] of [
    [[], /Missing a command/],
    [['frobnicate'], /Unknown command "users frobnicate"/],
    [['add'], /exactly one e-mail/],
    [['add', 'a@example.com', 'b@example.com'], /exactly one e-mail/],
    [['add', 'not-an-email'], /not a valid e-mail/],
    [['add', 'a@example.com', '--root'], /Unknown option --root/],
    [['remove', 'a@example.com', '--admin'], /Unknown option --admin/],
    [['list', 'extra'], /takes no arguments/],
    [['cleanups', 'a@example.com'], /takes no arguments/],
    [['remove', 'a@example.com', '--take-over'], /Unknown option --take-over/],
  ] as const) {
    it(`exits 64 for "users ${args.join(' ')}"`, async () => {
      const result = await cli(...args);
      assert.equal(result.code, EXIT.usage);
      assert.match(result.err, message);
    });
  }
});
