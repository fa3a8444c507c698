import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { createFakeAdminApi, makeUser } from '../testing/fake-admin-api';

const ADMIN = 'admin@example.com';
const OTHERS = ['a@example.com', 'b@example.com', 'c@example.com'];

function setup() {
  const fake = createFakeAdminApi({
    users: [ADMIN, ...OTHERS].map((email) => makeUser(email, { admin: email === ADMIN })),
  });
  server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
  const view = renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
  return { fake, user: view.user };
}

const table = () => screen.findByRole('table', { name: 'Allowed users' });
const checkbox = (email: string) => screen.getByRole('checkbox', { name: `Select ${email}` });
const selectAll = () => screen.getByRole('checkbox', { name: 'Select all on this page' });
const deleteSelected = () => screen.getByRole('button', { name: 'Delete selected' });
/** The notice after a change (the loading overlay is a status too, without text). */
const notice = () => screen.findByText(/\d+ deleted/).then((text) => text.closest<HTMLElement>('[role="status"]')!);
const deletes = (fake: ReturnType<typeof createFakeAdminApi>) =>
  fake.summary().filter((call) => call.startsWith('DELETE') || call.includes('bulk-delete'));

describe('selecting users on the admin screen', () => {
  it('counts the selection; "select all" takes every row of the page but the admin\'s own', async () => {
    const { user } = setup();
    await table();
    expect(screen.getByText('0 selected')).toBeInTheDocument();
    expect(deleteSelected()).toBeDisabled();

    const own = checkbox(ADMIN);
    expect(own).toBeDisabled();
    expect(own).toHaveAccessibleDescription('You cannot delete your own account.');

    await user.click(checkbox('b@example.com'));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    expect(selectAll()).not.toBeChecked();
    expect(selectAll()).toHaveProperty('indeterminate', true);
    expect(deleteSelected()).toBeEnabled();

    await user.click(selectAll());
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    for (const email of OTHERS) expect(checkbox(email)).toBeChecked();
    expect(checkbox(ADMIN)).not.toBeChecked();
    expect(selectAll()).toBeChecked();

    await user.click(selectAll());
    expect(screen.getByText('0 selected')).toBeInTheDocument();
    for (const email of OTHERS) expect(checkbox(email)).not.toBeChecked();
  });
});

describe('deleting the selected users', () => {
  it('asks once, "Delete 2 users?"; "No" deletes nothing and keeps the selection', async () => {
    const { fake, user } = setup();
    await table();
    await user.click(checkbox('a@example.com'));
    await user.click(checkbox('c@example.com'));
    await user.click(deleteSelected());
    const modal = await screen.findByRole('dialog', { name: 'Delete 2 users?' });
    expect(modal).toHaveTextContent('These 2 users lose access to the portal: a@example.com, c@example.com.');
    expect(within(modal).getByRole('button', { name: 'Delete 2 users' })).toHaveClass('btn-danger');
    await user.click(within(modal).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes(fake)).toEqual([]);
    expect(screen.getByText('2 selected')).toBeInTheDocument();
  });

  it('on confirming, sends the selection in one bulk call, then reloads and tells how many', async () => {
    const { fake, user } = setup();
    await table();
    await user.click(selectAll());
    await user.click(deleteSelected());
    const before = fake.calls.length;
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete 3 users?' })).getByRole('button', {
        name: 'Delete 3 users',
      }),
    );
    expect(await notice()).toHaveTextContent('3 deleted');
    const calls = fake.calls.slice(before);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /users/bulk-delete',
      'GET /users?limit=50&offset=0',
    ]);
    expect(calls[0]).toMatchObject({
      authorization: `Bearer token-of-${ADMIN}`,
      body: JSON.stringify({ emails: OTHERS }),
    });
    const rows = within(await table())
      .getAllByRole('row')
      .slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent(ADMIN);
    expect(screen.getByText('0 selected')).toBeInTheDocument();
  });

  it('names each address the server refused, with its message, and deletes the rest', async () => {
    const { fake, user } = setup();
    fake.refuseDelete.set('b@example.com', {
      status: 409,
      statusText: 'Conflict',
      message: 'You cannot remove the last administrator.',
    });
    await table();
    await user.click(selectAll());
    await user.click(deleteSelected());
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete 3 users?' })).getByRole('button', {
        name: 'Delete 3 users',
      }),
    );
    const told = await notice();
    expect(told).toHaveTextContent('2 deleted · 1 refused');
    expect(told).toHaveClass('alert-warning');
    expect(within(told).getByRole('listitem')).toHaveTextContent(
      'b@example.com: You cannot remove the last administrator.',
    );
    expect(deletes(fake)).toHaveLength(1);
    // The notice comes after the reload: the list shows the admin and the one that stayed.
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row').slice(1)).toHaveLength(2));
    expect(screen.getByRole('table')).toHaveTextContent('b@example.com');
    expect(screen.getByRole('table')).not.toHaveTextContent('a@example.com');
    expect(screen.queryByRole('dialog', { name: 'Error' })).not.toBeInTheDocument();
  });

  it('says so when the bulk call fails as a whole, deleting nothing', async () => {
    const { fake, user } = setup();
    fake.failNext.bulkDelete = { status: 503, message: 'The portal cannot reach its database.' };
    await table();
    await user.click(selectAll());
    await user.click(deleteSelected());
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete 3 users?' })).getByRole('button', {
        name: 'Delete 3 users',
      }),
    );
    const told = await notice();
    expect(told).toHaveTextContent('0 deleted · 3 failed');
    expect(within(told).getAllByRole('listitem')[0]).toHaveTextContent(
      'a@example.com: The portal cannot reach its database.',
    );
    expect(fake.users.size).toBe(4);
  });

  it('keeps the single-row "Are you sure?" for the per-row Delete', async () => {
    const { user } = setup();
    await table();
    await user.click(checkbox('a@example.com'));
    await user.click(screen.getByRole('button', { name: 'Delete b@example.com' }));
    const modal = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(modal).toHaveTextContent('Are you sure you want to delete user b@example.com');
    expect(within(modal).getByRole('button', { name: 'Yes' })).toBeInTheDocument();
  });
});
