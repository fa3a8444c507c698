import type { AccountCleanupItem, AuditEntry } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { createFakeAdminApi, makeUser } from '../testing/fake-admin-api';

const ADMIN = 'admin@example.com';

const entry = (id: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: new Date(Date.UTC(2025, 0, 1, 12, 0, id)).toISOString(),
  actor: ADMIN,
  action: 'users.add',
  target: `user${id}@example.com`,
  outcome: 'ok',
  detail: null,
  client: null,
  count: 1,
  ...overrides,
});

function openAuditLog(audit: AuditEntry[], cleanups: AccountCleanupItem[] = []) {
  const fake = createFakeAdminApi({ users: [makeUser(ADMIN, { admin: true })], audit, cleanups });
  server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
  return { ...renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) }), fake };
}

describe('the audit log tab', () => {
  it('is fetched only when opened, with the bearer token, and lists entries newest first as sent', async () => {
    const { user, fake } = openAuditLog([
      entry(3, { action: 'users.remove', target: 'gone@example.com' }),
      entry(2, {
        actor: 'user@example.com',
        action: 'GET /api/users',
        target: null,
        outcome: 'refused',
        detail: 'not an administrator',
      }),
      entry(1),
    ]);
    await screen.findByRole('table', { name: 'Allowed users' });
    expect(fake.summary().some((call) => call.includes('/audit'))).toBe(false);

    await user.click(screen.getByRole('tab', { name: 'Audit log' }));
    const table = await screen.findByRole('table', { name: 'Audit entries' });
    const call = fake.calls.find((recorded) => recorded.path.startsWith('/audit'));
    expect(call).toMatchObject({ path: '/audit?limit=50&offset=0', authorization: `Bearer token-of-${ADMIN}` });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(/Delete user\s*gone@example.com\s*by admin@example.com\s*Done/);
    expect(rows[1]).toHaveTextContent('user@example.com');
    expect(rows[1]).toHaveTextContent('GET /api/users');
    expect(rows[1]).toHaveTextContent('Refused');
    expect(rows[1]).toHaveTextContent('not an administrator');
    expect(rows[2]).toHaveTextContent(/Add user\s*user1@example.com/);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['When', 'Event', 'Result']);
    expect(screen.getByText('1–3 of 3 entries')).toBeInTheDocument();
  });

  it('pages through a long log, each page read from the top of the screen', async () => {
    // jsdom does not scroll; the browser's scrolling is checked end to end on the user list's pager.
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const { user, fake } = openAuditLog(Array.from({ length: 60 }, (_, index) => entry(60 - index)));
    await user.click(await screen.findByRole('tab', { name: 'Audit log' }));
    await screen.findByText('1–50 of 60 entries');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('51–60 of 60 entries');
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0 });
    scrollTo.mockRestore();
    expect(fake.summary().filter((call) => call.includes('/audit'))).toEqual([
      'GET /audit?limit=50&offset=0',
      'GET /audit?limit=50&offset=50',
    ]);
  });

  it("shows the server's message when the log cannot be read", async () => {
    const { user, fake } = openAuditLog([]);
    fake.failNext.audit = { status: 503, statusText: 'Service Unavailable', message: 'The audit log is unavailable.' };
    await user.click(await screen.findByRole('tab', { name: 'Audit log' }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent('The audit log is unavailable.');
  });

  it('filters by parcel code and by user, starting again at the first page', async () => {
    const { user, fake } = openAuditLog([
      entry(3, { actor: 'user@example.com', action: 'invoice.download', target: 'ABC123', detail: 'sha256 aa' }),
      entry(2, { actor: 'user@example.com', action: 'invoice.download', target: 'XYZ999', detail: 'sha256 bb' }),
      entry(1),
    ]);
    await user.click(await screen.findByRole('tab', { name: 'Audit log' }));
    await screen.findByText('1–3 of 3 entries');
    await user.type(screen.getByLabelText('Parcel code'), 'ABC123');
    await user.type(screen.getByLabelText('User e-mail'), 'User@example.com');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByText('1–1 of 1 entries');
    const rows = within(screen.getByRole('table', { name: 'Audit entries' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows[0]).toHaveTextContent(/Open invoice\s*ABC123\s*by user@example.com · sha256 aa/);
    expect(
      fake
        .summary()
        .filter((call) => call.includes('/audit'))
        .at(-1),
    ).toBe('GET /audit?limit=50&offset=0&parcelCode=ABC123&user=user%40example.com');
  });

  it('lists deleted users whose sign-in account is still to be deleted, and nothing when there are none', async () => {
    const { user } = openAuditLog(
      [entry(1, { action: 'users.account-cleanup', target: 'gone@example.com', outcome: 'failed' })],
      [
        {
          email: 'gone@example.com',
          requestedBy: ADMIN,
          requestedAt: '2025-01-01T12:00:00.000Z',
          attempts: 3,
          nextAttemptAt: '2025-01-01T12:01:00.000Z',
          lastError: 'The identity provider did not answer within 3000 ms',
        },
      ],
    );
    await screen.findByRole('table', { name: 'Allowed users' });
    await user.click(screen.getByRole('tab', { name: 'Audit log' }));
    const pending = await screen.findByRole('alert', { name: '1 clean-up pending' });
    expect(pending).toHaveTextContent(/gone@example.com, deleted by admin@example.com on .*; 3 attempts/);
    expect(pending).toHaveTextContent('did not answer within 3000 ms');
    const rows = within(await screen.findByRole('table', { name: 'Audit entries' })).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/Delete sign-in account of\s*gone@example.com.*Failed/);
  });

  it('shows no pending clean-ups when there are none', async () => {
    const { user } = openAuditLog([entry(1)]);
    await screen.findByRole('table', { name: 'Allowed users' });
    await user.click(screen.getByRole('tab', { name: 'Audit log' }));
    await screen.findByRole('table', { name: 'Audit entries' });
    expect(screen.queryByRole('alert', { name: /clean-up/ })).not.toBeInTheDocument();
  });
});
