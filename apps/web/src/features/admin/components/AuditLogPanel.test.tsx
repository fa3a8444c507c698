import type { AccountCleanupItem, AuditEntry } from '@portal/contract';
import { act, screen, within } from '@testing-library/react';
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

function openAuditLog(audit: AuditEntry[], cleanups: AccountCleanupItem[] = [], path = '/admin') {
  const fake = createFakeAdminApi({ users: [makeUser(ADMIN, { admin: true })], audit, cleanups });
  server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
  return { ...renderApp(path, { auth: createFakeAuthClient({ signedInAs: ADMIN }) }), fake };
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
    expect(call).toMatchObject({
      path: '/audit?limit=50&offset=0&events=no-confirmations',
      authorization: `Bearer token-of-${ADMIN}`,
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(/Deleted user\s*gone@example.com\s*by admin@example.com\s*Done/);
    expect(rows[1]).toHaveTextContent('user@example.com');
    expect(rows[1]).toHaveTextContent('List users');
    expect(rows[1]).toHaveTextContent('Refused');
    expect(rows[1]).toHaveTextContent('not an administrator');
    expect(rows[2]).toHaveTextContent(/Added user\s*user1@example.com/);
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
      'GET /audit?limit=50&offset=0&events=no-confirmations',
      'GET /audit?limit=50&offset=50&events=no-confirmations',
    ]);
  });

  it('leaves passkey confirmations out until asked for, and lists one group of events on choosing it', async () => {
    const { user, fake } = openAuditLog([
      entry(4, { action: 'passkeys.step-up', target: ADMIN }),
      entry(3, { action: 'passkeys.step-up', target: ADMIN }),
      entry(2, { action: 'invoice.download', target: 'ABC123', actor: 'user@example.com' }),
      entry(1),
    ]);
    await user.click(await screen.findByRole('tab', { name: 'Audit log' }));
    await screen.findByText('1–2 of 2 entries');
    const events = screen.getByRole('combobox', { name: 'Events' });
    expect(events).toHaveDisplayValue('All but passkey confirmations');

    await user.selectOptions(events, 'Passkeys');
    await screen.findByText('1–2 of 2 entries');
    const rows = within(screen.getByRole('table', { name: 'Audit entries' }))
      .getAllByRole('row')
      .slice(1);
    // The admin's own confirmation names the admin once, as who did it.
    expect(rows[0]).toHaveTextContent(/^.*Confirmed with a passkey\s*by admin@example.com\s*Done$/);
    await user.selectOptions(events, 'Everything');
    await screen.findByText('1–4 of 4 entries');
    expect(
      fake
        .summary()
        .filter((call) => call.includes('/audit'))
        .map((call) => new URL(call.split(' ')[1]!, 'http://x').searchParams.get('events')),
    ).toEqual(['no-confirmations', 'passkeys', 'all']);
  });

  it('names people and calls as people read them, without internal ids', async () => {
    const { user } = openAuditLog([
      entry(3, {
        actor: null,
        action: 'DELETE /api/users/:email',
        target: null,
        outcome: 'refused',
        detail: '401 Please sign in to continue.; expired; uid Xy12abcDEF',
        client: '203.0.113.0',
        count: 4,
      }),
      entry(2, {
        actor: 'cli:jane',
        action: 'users.account-cleanup',
        target: 'gone@example.com',
        detail: 'sessions ended and sign-in account deleted (uid Ab34)',
      }),
      entry(1, {
        actor: 'service',
        action: 'invoice.ingest',
        target: 'ABC123',
        detail: `created format=ubl sha256=${'a'.repeat(64)} size=12345`,
      }),
    ]);
    await user.click(await screen.findByRole('tab', { name: 'Audit log' }));
    const table = await screen.findByRole('table', { name: 'Audit entries' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(
      /Delete a user\s*by an anonymous caller from 203.0.113.0 · Please sign in to continue.; expired · 4 times/,
    );
    expect(rows[1]).toHaveTextContent(
      /Deleted the sign-in account of gone@example.com\s*by jane \(command line\) · sessions ended and sign-in account deleted/,
    );
    expect(rows[2]).toHaveTextContent(
      /Stored invoice ABC123\s*by the invoice import service · created as ubl 12,345 bytes/,
    );
    expect(table).not.toHaveTextContent(/uid|sha256|Xy12|Ab34|\/api\//);
  });

  it('keeps the open tab in the address: a reload shows it again, Back returns to the user list', async () => {
    const { user, router } = openAuditLog([entry(1)]);
    await user.click(await screen.findByRole('tab', { name: 'Audit log' }));
    await screen.findByRole('table', { name: 'Audit entries' });
    expect(router.state.location.search).toBe('?tab=audit');
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('tab', { name: 'User list', selected: true })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('opens on the audit log when the address names it, as after a reload', async () => {
    openAuditLog([entry(1)], [], '/admin?tab=audit');
    expect(await screen.findByRole('table', { name: 'Audit entries' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Audit log', selected: true })).toBeInTheDocument();
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
    expect(rows[0]).toHaveTextContent(/Opened invoice\s*ABC123\s*by user@example.com\s*Done$/);
    expect(
      fake
        .summary()
        .filter((call) => call.includes('/audit'))
        .at(-1),
    ).toBe('GET /audit?limit=50&offset=0&parcelCode=ABC123&user=user%40example.com&events=no-confirmations');
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
    expect(rows[1]).toHaveTextContent(/Deleted the sign-in account of\s*gone@example.com.*Failed/);
  });

  it('shows no pending clean-ups when there are none', async () => {
    const { user } = openAuditLog([entry(1)]);
    await screen.findByRole('table', { name: 'Allowed users' });
    await user.click(screen.getByRole('tab', { name: 'Audit log' }));
    await screen.findByRole('table', { name: 'Audit entries' });
    expect(screen.queryByRole('alert', { name: /clean-up/ })).not.toBeInTheDocument();
  });
});
