import { configure, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { createFakeAdminApi, makeUser } from '../testing/fake-admin-api';
import outlookContacts from '../testing/outlook-contacts.csv?raw';

// The route loads the screen lazily; loading it up front keeps that cost out of each test's time limit,
// and a busy machine (the suites run in parallel) gets more than the default second to render a screen.
beforeAll(() => import('./AdminUsersScreen'));
configure({ asyncUtilTimeout: 3000 });

const ADMIN = 'admin@example.com';

async function openBulkAdd() {
  const fake = createFakeAdminApi({ users: [makeUser(ADMIN, { admin: true }), makeUser('old@example.com')] });
  server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
  const view = renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
  await view.user.click(await screen.findByRole('button', { name: 'Bulk add' }));
  const modal = await screen.findByRole('dialog', { name: 'Bulk add' });
  return { ...view, fake, modal };
}

const resultOf = (modal: HTMLElement, address: string) =>
  within(within(modal).getByRole('table', { name: 'Bulk add results' }))
    .getByRole('cell', { name: address })
    .closest('tr');

describe('bulk add', () => {
  it('adds each pasted address in turn and reports a result per address', async () => {
    const { user, fake, modal } = await openBulkAdd();
    const field = within(modal).getByLabelText('Email addresses');
    await user.click(field);
    await user.paste('New1@example.com, not-an-address\nold@example.com; new2@example.com\nnew1@example.com');
    expect(within(modal).getByText('4 addresses found.')).toBeInTheDocument();
    const before = fake.calls.length;
    await user.click(within(modal).getByRole('button', { name: 'Add users' }));

    await within(modal).findByRole('button', { name: 'Done' });
    expect(within(modal).getByText('2 added, 1 already on the list, 1 invalid, 0 failed')).toBeInTheDocument();
    expect(resultOf(modal, 'New1@example.com')).toHaveTextContent('Added');
    expect(resultOf(modal, 'not-an-address')).toHaveTextContent('InvalidInvalid email address');
    expect(resultOf(modal, 'old@example.com')).toHaveTextContent('Already on the list');
    expect(resultOf(modal, 'new2@example.com')).toHaveTextContent('Added');

    // The single add's two calls per address, one address after the other; register without auth.
    const writes = fake.calls.slice(before).filter((call) => call.method === 'POST');
    expect(writes.map((call) => `${call.path} ${call.authorization ? 'bearer' : 'no auth'}`)).toEqual([
      '/users/new1%40example.com bearer',
      '/users no auth',
      '/users/old%40example.com bearer',
      '/users/new2%40example.com bearer',
      '/users no auth',
    ]);
    await user.click(within(modal).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.getByRole('table', { name: 'Allowed users' })).toHaveTextContent('new2@example.com'),
    );
  });

  it('reports a failed add with the server message', async () => {
    const { user, fake, modal } = await openBulkAdd();
    fake.failNext.create = { status: 502, statusText: 'Bad Gateway', message: 'The identity provider is down.' };
    await user.type(within(modal).getByLabelText('Email addresses'), 'a@example.com');
    await user.click(within(modal).getByRole('button', { name: 'Add users' }));
    await within(modal).findByRole('button', { name: 'Done' });
    expect(resultOf(modal, 'a@example.com')).toHaveTextContent('FailedThe identity provider is down.');
  });

  it('reads addresses from a chosen CSV file', async () => {
    const { user, modal } = await openBulkAdd();
    const file = new File(['email,name\nfile1@example.com,One\nfile2@example.com,Two\n'], 'users.csv', {
      type: 'text/csv',
    });
    await user.upload(within(modal).getByLabelText('Or choose a CSV file'), file);
    expect(await within(modal).findByText('2 addresses found.')).toBeInTheDocument();
    expect(within(modal).getByLabelText('Email addresses')).toHaveValue(
      'email,name\nfile1@example.com,One\nfile2@example.com,Two\n',
    );
  });

  it('adds everyone in an Outlook contacts export, quoted names with commas and all', async () => {
    const { user, fake, modal } = await openBulkAdd();
    const file = new File([outlookContacts], 'contacts.csv', { type: 'text/csv' });
    await user.upload(within(modal).getByLabelText('Or choose a CSV file'), file);
    expect(await within(modal).findByText('3 addresses found.')).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Add users' }));
    await within(modal).findByRole('button', { name: 'Done' });
    expect(within(modal).getByText('3 added, 0 already on the list, 0 invalid, 0 failed')).toBeInTheDocument();
    expect(fake.users.has('jane.doe@example.com')).toBe(true);
    expect(fake.users.has('ann.lee@example.com')).toBe(true);
  });

  it('cannot start without an address', async () => {
    const { modal } = await openBulkAdd();
    expect(within(modal).getByText('0 addresses found.')).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Add users' })).toBeDisabled();
  });
});
