import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { MANY_ROWS_TEST_TIMEOUT_MS } from '@/testing/time-limits';
import { createFakeAdminApi, makeUser } from '../testing/fake-admin-api';
import outlookContacts from '../testing/outlook-contacts.csv?raw';

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

/** A gate the fake's bulk handler waits at: the screen can be looked at with a call under way. */
function holdBulkCalls(fake: ReturnType<typeof createFakeAdminApi>) {
  let open = () => {};
  fake.gates.bulk = new Promise<void>((resolve) => (open = resolve));
  return () => {
    delete fake.gates.bulk;
    open();
  };
}

const addresses = (count: number) => Array.from({ length: count }, (_, i) => `bulk${i}@example.com`).join('\n');

describe('bulk add', () => {
  it('sends the pasted addresses to the server in one call and reports a result per address', async () => {
    const { user, fake, modal } = await openBulkAdd();
    const field = within(modal).getByLabelText('Email addresses');
    await user.click(field);
    await user.paste('New1@example.com, not-an-address\nold@example.com; new2@example.com\nnew1@example.com');
    expect(within(modal).getByText('4 addresses found.')).toBeInTheDocument();
    const before = fake.calls.length;
    await user.click(within(modal).getByRole('button', { name: 'Add users' }));

    await within(modal).findByRole('button', { name: 'Done' });
    expect(within(modal).getByText('2 added · 1 already on the list · 1 invalid')).toBeInTheDocument();
    expect(resultOf(modal, 'New1@example.com')).toHaveTextContent('Added');
    expect(resultOf(modal, 'not-an-address')).toHaveTextContent('InvalidInvalid email address');
    expect(resultOf(modal, 'old@example.com')).toHaveTextContent('Already on the list');
    expect(resultOf(modal, 'new2@example.com')).toHaveTextContent('Added');

    // One authorised call; neither the single add's calls nor the anonymous register call.
    const writes = fake.calls.slice(before).filter((call) => call.method === 'POST');
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      path: '/users/bulk-add',
      authorization: `Bearer token-of-${ADMIN}`,
      body: JSON.stringify({
        emails: ['New1@example.com', 'not-an-address', 'old@example.com', 'new2@example.com'],
      }),
    });
    await user.click(within(modal).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.getByRole('table', { name: 'Allowed users' })).toHaveTextContent('new2@example.com'),
    );
    // The summary stays above the list once the modal has gone (it fades out: until then both show it).
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Bulk add' })).not.toBeInTheDocument());
    // An address left out makes it a warning, and names the address with the reason, so it can be fixed.
    const notice = screen.getByText('2 added · 1 already on the list · 1 invalid').closest('.alert');
    expect(notice).toHaveClass('alert-warning');
    expect(notice).toHaveTextContent('Not added: not-an-address (Invalid email address)');
  });

  it('gives the addresses it adds the finance role when asked, and starts the next run without it', async () => {
    const { user, fake, modal } = await openBulkAdd();
    await user.click(within(modal).getByLabelText('Email addresses'));
    await user.paste('anna@example.com\nold@example.com');
    const finance = within(modal).getByRole('checkbox', { name: 'Give them the finance role too' });
    expect(finance).not.toBeChecked();
    expect(finance).toHaveAccessibleDescription(/Addresses already on the list keep their roles\./);
    await user.click(finance);
    const before = fake.calls.length;
    await user.click(within(modal).getByRole('button', { name: 'Add users' }));
    await user.click(await within(modal).findByRole('button', { name: 'Done' }));

    const writes = fake.calls.slice(before).filter((call) => call.method === 'POST');
    expect(writes.map((call) => JSON.parse(call.body) as unknown)).toEqual([
      { emails: ['anna@example.com', 'old@example.com'], finance: true },
    ]);
    expect(fake.users.get('anna@example.com')?.finance).toBe(true);
    expect(fake.users.get('old@example.com')?.finance).toBe(false);

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Bulk add' })).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Bulk add' }));
    const again = await screen.findByRole('dialog', { name: 'Bulk add' });
    expect(within(again).getByRole('checkbox', { name: 'Give them the finance role too' })).not.toBeChecked();
  });

  it(
    'sends a long list 50 addresses a call, showing progress as each call answers',
    { timeout: MANY_ROWS_TEST_TIMEOUT_MS },
    async () => {
      const { user, fake, modal } = await openBulkAdd();
      await user.click(within(modal).getByLabelText('Email addresses'));
      await user.paste(addresses(120));
      await user.click(within(modal).getByRole('button', { name: 'Add users' }));
      await within(modal).findByRole('button', { name: 'Done' });
      const bodies = fake.calls
        .filter((call) => call.path === '/users/bulk-add')
        .map((call) => (JSON.parse(call.body) as { emails: string[] }).emails.length);
      expect(bodies).toEqual([50, 50, 20]);
      expect(within(modal).getByText('120 of 120 addresses done')).toBeInTheDocument();
      expect(within(modal).getByText('120 added')).toBeInTheDocument();
    },
  );

  it(
    'cannot be closed while a run is under way, and Stop lists at once what it skipped',
    { timeout: MANY_ROWS_TEST_TIMEOUT_MS },
    async () => {
      const { user, fake, modal } = await openBulkAdd();
      await user.click(within(modal).getByLabelText('Email addresses'));
      await user.paste(addresses(120));
      const release = holdBulkCalls(fake);
      await user.click(within(modal).getByRole('button', { name: 'Add users' }));
      const stop = await within(modal).findByRole('button', { name: 'Stop' });
      expect(within(modal).queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
      await user.keyboard('{Escape}');
      expect(screen.getByRole('dialog', { name: 'Bulk add' })).toBeInTheDocument();

      await user.click(stop);
      // At once, with the first call still unanswered: the 70 never sent are listed as skipped.
      expect(within(modal).getByText(/Stopped\. 70 not sent are skipped/)).toBeInTheDocument();
      expect(
        within(within(modal).getByRole('table', { name: 'Bulk add results' })).getAllByText('Skipped'),
      ).toHaveLength(70);
      expect(resultOf(modal, 'bulk119@example.com')).toHaveTextContent('Skipped');
      await user.keyboard('{Escape}');
      expect(screen.getByRole('dialog', { name: 'Bulk add' })).toBeInTheDocument();

      release();
      await within(modal).findByRole('button', { name: 'Done' });
      expect(within(modal).getByText('50 added · 70 skipped')).toBeInTheDocument();
      expect(fake.calls.filter((call) => call.path === '/users/bulk-add')).toHaveLength(1);
      expect(fake.users.has('bulk49@example.com')).toBe(true);
      expect(fake.users.has('bulk50@example.com')).toBe(false);
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.getByText('50 added · 70 skipped').closest('.alert')).toHaveClass('alert-warning');
    },
  );

  it('reports an address the server could not add with its message', async () => {
    const { user, fake, modal } = await openBulkAdd();
    fake.refuseAdd.set('a@example.com', 'The sign-in service is unavailable. Please try again in a minute.');
    await user.type(within(modal).getByLabelText('Email addresses'), 'a@example.com, b@example.com');
    await user.click(within(modal).getByRole('button', { name: 'Add users' }));
    await within(modal).findByRole('button', { name: 'Done' });
    expect(resultOf(modal, 'a@example.com')).toHaveTextContent(
      'FailedThe sign-in service is unavailable. Please try again in a minute.',
    );
    expect(within(modal).getByText('1 added · 1 failed')).toBeInTheDocument();
  });

  it(
    'ends the run when a call fails as a whole, saying why and skipping the rest',
    { timeout: MANY_ROWS_TEST_TIMEOUT_MS },
    async () => {
      const { user, fake, modal } = await openBulkAdd();
      fake.failNext.bulkAdd = { status: 403, message: 'You do not have permission to do this.' };
      await user.click(within(modal).getByLabelText('Email addresses'));
      await user.paste(addresses(60));
      await user.click(within(modal).getByRole('button', { name: 'Add users' }));
      await within(modal).findByRole('button', { name: 'Done' });
      expect(within(modal).getByText('The run stopped: You do not have permission to do this.')).toBeInTheDocument();
      expect(within(modal).getByText('0 added · 50 failed · 10 skipped')).toBeInTheDocument();
    },
  );

  it('says an address may or may not have been added when the answer never came', async () => {
    const { user, fake, modal } = await openBulkAdd();
    fake.failNext.bulkAdd = 'network';
    await user.type(within(modal).getByLabelText('Email addresses'), 'a@example.com');
    await user.click(within(modal).getByRole('button', { name: 'Add users' }));
    await within(modal).findByRole('button', { name: 'Done' });
    expect(resultOf(modal, 'a@example.com')).toHaveTextContent('may or may not have been done');
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
    expect(within(modal).getByText('3 added')).toBeInTheDocument();
    expect(fake.users.has('jane.doe@example.com')).toBe(true);
    expect(fake.users.has('ann.lee@example.com')).toBe(true);
  });

  it('cannot start without an address, nor with more than 1,000', { timeout: MANY_ROWS_TEST_TIMEOUT_MS }, async () => {
    const { user, modal } = await openBulkAdd();
    expect(within(modal).getByText('0 addresses found.')).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Add users' })).toBeDisabled();
    await user.click(within(modal).getByLabelText('Email addresses'));
    await user.paste(addresses(1001));
    expect(within(modal).getByText('1,001 addresses found: at most 1,000 at a time.')).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Add users' })).toBeDisabled();
  });
});
