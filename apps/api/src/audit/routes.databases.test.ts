import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEntrySchema, TOTAL_COUNT_HEADER } from '@portal/contract';
import { useTestApp } from '../../test/helpers/test-app.ts';

describe('GET /api/audit', () => {
  const t = useTestApp();

  it('lists adds, removals and refused calls, newest first, with who, what, when and the outcome', async () => {
    const admin = t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
    const user = t.bearer((await t.createAccount('user@example.com')).idToken);
    await t.app.inject({ method: 'POST', url: '/api/users/new@example.com', headers: admin });
    await t.app.inject({ method: 'DELETE', url: '/api/users/new@example.com', headers: admin });
    await t.app.inject({ method: 'DELETE', url: '/api/users/admin@example.com', headers: user });
    await t.app.domain.auditWriter.flush();

    const response = await t.app.inject({ url: '/api/audit', headers: admin });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers[TOTAL_COUNT_HEADER], '6');
    const entries = response.json();
    for (const entry of entries) auditEntrySchema.parse(entry);
    assert.deepEqual(
      entries.map((entry: { actor: string; action: string; target: string | null; outcome: string }) => [
        entry.actor,
        entry.action,
        entry.target,
        entry.outcome,
      ]),
      [
        ['user@example.com', 'DELETE /api/users/:email', null, 'refused'],
        ['admin@example.com', 'users.account-cleanup', 'new@example.com', 'ok'],
        ['admin@example.com', 'users.remove', 'new@example.com', 'ok'],
        ['admin@example.com', 'users.add', 'new@example.com', 'ok'],
        // The test admin's passkey, set up when the account was made (admin calls need one), with the
        // enrollment code issued for it as the CLI issues one at go-live.
        ['admin@example.com', 'passkeys.enroll', 'admin@example.com', 'ok'],
        ['cli:test', 'passkeys.enrollment-code', 'admin@example.com', 'ok'],
      ],
    );
    assert.ok(Date.now() - Date.parse(entries[0].at) < 60_000);
  });

  it('pages with limit and offset, reporting the total', async () => {
    const admin = t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
    for (let i = 0; i < 7; i++)
      await t.app.domain.audit.record({
        actor: 'cli:test',
        action: 'users.add',
        target: `u${i}@example.com`,
        outcome: 'ok',
      });
    const response = await t.app.inject({ url: '/api/audit?limit=3&offset=2', headers: admin });
    // The seven, and the test admin's enrollment code and passkey set-up before them.
    assert.equal(response.headers[TOTAL_COUNT_HEADER], '9');
    assert.deepEqual(
      response.json().map((entry: { target: string }) => entry.target),
      ['u4@example.com', 'u3@example.com', 'u2@example.com'],
    );
  });

  it('lists one group of events, counting only that group for the pager', async () => {
    const admin = t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
    const events = [
      { action: 'passkeys.step-up', outcome: 'ok' },
      { action: 'passkeys.step-up', outcome: 'ok' },
      { action: 'passkeys.reset', outcome: 'ok' },
      { action: 'users.add', outcome: 'ok' },
      { action: 'sessions.end', outcome: 'ok' },
      { action: 'invoice.download', outcome: 'refused' },
      { action: 'DELETE /api/users/:email', outcome: 'refused' },
    ] as const;
    for (const event of events)
      await t.app.domain.audit.record({ actor: 'cli:test', target: 'x@example.com', ...event });
    const listed = async (group: string) => {
      const response = await t.app.inject({ url: `/api/audit?events=${group}&limit=100`, headers: admin });
      assert.equal(response.statusCode, 200, response.body);
      const actions = response.json().map((entry: { action: string }) => entry.action);
      assert.equal(response.headers[TOTAL_COUNT_HEADER], String(actions.length));
      return actions;
    };
    // The test admin's enrollment code and passkey set-up are in the log too (see the first test).
    assert.deepEqual(await listed('no-confirmations'), [
      'DELETE /api/users/:email',
      'invoice.download',
      'sessions.end',
      'users.add',
      'passkeys.reset',
      'passkeys.enroll',
      'passkeys.enrollment-code',
    ]);
    assert.deepEqual(await listed('users'), ['sessions.end', 'users.add']);
    assert.deepEqual(await listed('invoices'), ['invoice.download']);
    assert.deepEqual(await listed('passkeys'), [
      'passkeys.reset',
      'passkeys.step-up',
      'passkeys.step-up',
      'passkeys.enroll',
      'passkeys.enrollment-code',
    ]);
    assert.deepEqual(await listed('refused'), ['DELETE /api/users/:email', 'invoice.download']);
    assert.equal((await listed('all')).length, events.length + 2);
  });

  for (const query of ['limit=0', 'limit=501', 'offset=-1', 'limit=x', 'actor=me', 'events=logins']) {
    it(`answers 400 with a message for ${query}`, async () => {
      const admin = t.bearer((await t.createAccount('admin@example.com', { admin: true })).idToken);
      const response = await t.app.inject({ url: `/api/audit?${query}`, headers: admin });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().message, /^Invalid/);
    });
  }
});
