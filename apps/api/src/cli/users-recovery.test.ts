import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { enrollPasskey, createSoftwareAuthenticator } from '@portal/dev-stack/passkeys';
import { INJECT_ORIGIN, useTestApp } from '../../test/helpers/test-app.ts';
import { signIn } from '../../test/helpers/tokens.ts';
import { EXIT, type CliOutput } from './cli-io.ts';
import { parseUsersArgs, runUsersCommand } from './users.ts';

describe('npm run portal -- users reset-passkeys | end-sessions', () => {
  const t = useTestApp();

  async function cli(...args: string[]) {
    const output = { out: '', err: '' };
    const io: CliOutput = {
      out: (line) => void (output.out += `${line}\n`),
      err: (line) => void (output.err += `${line}\n`),
    };
    const command = parseUsersArgs(args);
    if ('error' in command) return { code: EXIT.usage, ...output, err: command.error };
    return { code: await runUsersCommand(command, t.domain, io), ...output };
  }

  it('resets the passkeys of an administrator who lost theirs (the last admin, say), audited as the operator', async () => {
    const admin = await t.createAccount('boss@example.com', { admin: true });
    assert.deepEqual(parseUsersArgs(['reset-passkeys', 'boss@example.com']), {
      error: '"users reset-passkeys" needs --operator <your name>, for the audit log.',
    });
    await sleep(1100); // Firebase voids tokens issued before the second of the revocation.
    const result = await cli('reset-passkeys', 'Boss@Example.com', '--operator', 'Jane Doe');
    assert.equal(result.code, EXIT.ok, result.err);
    assert.match(result.out, /^Removed 1 passkey of boss@example\.com and signed them out everywhere\./);
    const code = /Enrollment code for boss@example\.com: ([0-9A-Z-]{19})\n/.exec(result.out)?.[1];
    assert.ok(code, result.out);
    // Whoever held the admin's session is out; the admin signs in again and sets up a passkey with the code.
    const ended = await t.app.inject({ url: '/api/users', headers: t.bearer(admin.idToken) });
    assert.equal(ended.statusCode, 401);
    const again = await signIn('boss@example.com');
    const refused = await t.app.inject({ url: '/api/users', headers: t.bearer(again.idToken) });
    assert.equal(refused.json().code, 'step-up-required');
    await enrollPasskey(t.callAs(again.idToken), createSoftwareAuthenticator({ origin: INJECT_ORIGIN }), {
      enrollmentCode: code,
    });
    assert.equal((await t.app.inject({ url: '/api/users', headers: t.bearer(again.idToken) })).statusCode, 200);
    const entries = await t.app.domain.audit.list({ limit: 20, offset: 0 });
    const byOperator = entries
      .filter((entry) => entry.actor === 'cli:Jane Doe')
      .map((entry) => [entry.action, entry.target, entry.outcome])
      .sort();
    assert.deepEqual(byOperator, [
      ['passkeys.enrollment-code', 'boss@example.com', 'ok'],
      ['passkeys.reset', 'boss@example.com', 'ok'],
      ['sessions.end', 'boss@example.com', 'ok'],
    ]);

    const unknown = await cli('reset-passkeys', 'nobody@example.com', '--operator', 'Jane Doe');
    assert.equal(unknown.code, EXIT.refused);
    assert.equal(unknown.err, 'nobody@example.com is not on the list of allowed users.\n');
  });

  it('ends every session of a person', async () => {
    const user = await t.createAccount('user@example.com');
    await sleep(1100); // Firebase voids tokens issued before the second of the revocation.
    const result = await cli('end-sessions', 'user@example.com');
    assert.equal(result.code, EXIT.ok, result.err);
    assert.equal(result.out, 'user@example.com is signed out on every device and must sign in again.\n');
    const refused = await t.app.inject({ url: '/api/users/user@example.com', headers: t.bearer(user.idToken) });
    assert.equal(refused.statusCode, 401);
  });

  it('takes exactly one address', () => {
    assert.deepEqual(parseUsersArgs(['reset-passkeys']), {
      error: '"users reset-passkeys" takes exactly one e-mail address.',
    });
    assert.deepEqual(parseUsersArgs(['end-sessions', 'a@example.com', 'b@example.com']), {
      error: '"users end-sessions" takes exactly one e-mail address.',
    });
  });
});
