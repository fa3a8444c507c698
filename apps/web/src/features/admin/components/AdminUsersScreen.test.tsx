import { act, fireEvent, getConfig, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { MANY_ROWS_TEST_TIMEOUT_MS } from '@/testing/time-limits';
import { formatDateTime } from '@/lib/format-date';
import { RELOAD_AFTER_REGISTER_MS } from '../api/add-user';
import { createFakeAdminApi, FAKE_ENROLLMENT_CODE, makeUser } from '../testing/fake-admin-api';
import { SEARCH_DEBOUNCE_MS } from './SearchField';

const ADMIN = 'admin@example.com';
const NO_PERMISSION = 'You do not have permissions to view this page. Please contact the website administrator.';

function setup(options: { users?: string[]; admins?: string[]; accounts?: Record<string, { admin?: boolean }> } = {}) {
  const admins = options.admins ?? [ADMIN];
  const fake = createFakeAdminApi({
    users: (options.users ?? [ADMIN, 'user@example.com']).map((email) =>
      makeUser(email, { admin: admins.includes(email) }),
    ),
  });
  server.use(accountLookup(options.accounts ?? { [ADMIN]: { admin: true }, 'user@example.com': {} }), ...fake.handlers);
  return fake;
}

const openAs = (email = ADMIN) => renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: email }) });
const usersTable = () => screen.findByRole('table', { name: 'Allowed users' });
const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const dialog = (name: string) => screen.findByRole('dialog', { name });
/**
 * Lets a debounced search or a page change made outside an event handler reach the screen inside act():
 * the router renders them as transitions, which a waitFor polling a large page can starve in jsdom.
 */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 100)));
/**
 * Puts `term` into the search field as one input, then waits out the debounce, both inside one act(). Typed
 * key by key, a busy machine took longer than the debounce between two keys: the search went out early,
 * outside act(), and the test saw searches for half a word.
 */
const searchFor = (term: string) =>
  act(async () => {
    fireEvent.change(screen.getByLabelText('Search by email'), { target: { value: term } });
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 100));
  });
/** For a wait that spans the spec's pause before the list reloads after an add, on top of a step's own limit. */
const throughTheReload = () => ({ timeout: RELOAD_AFTER_REGISTER_MS + getConfig().asyncUtilTimeout });
/** The pager's buttons, found within it: a role query over a page of 50 rows is slow in jsdom. */
const pagerButton = (name: string) =>
  within(screen.getByRole('navigation', { name: 'users pages' })).getByRole('button', { name });

describe('the admin users screen for an admin', () => {
  it('shows "Users" and a table with Email and Actions, one row and one delete button per user', async () => {
    const fake = setup({ users: [ADMIN, 'b@example.com', 'c@example.com'] });
    openAs();
    expect(await screen.findByRole('heading', { name: 'Users', level: 1 })).toBeInTheDocument();
    const table = await usersTable();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Select', 'Email', 'Status', 'Added', 'Added by', 'Actions']);
    const rows = bodyRows(table);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      ADMIN,
      'b@example.com',
      'c@example.com',
    ]);
    for (const row of rows) expect(within(row).getByRole('button', { name: /^Delete / })).toHaveTextContent('Delete');
    // One page at a time, with the bearer token.
    const list = fake.calls.find((call) => call.method === 'GET');
    expect(list?.path).toBe('/users?limit=50&offset=0');
    expect(list?.authorization).toBe(`Bearer token-of-${ADMIN}`);
  });

  it('shows the loading overlay while the list loads', async () => {
    const fake = setup();
    let open = () => {};
    fake.gates.list = new Promise((resolve) => (open = resolve));
    openAs();
    await waitFor(() => expect(fake.calls).toHaveLength(1));
    expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();
    open();
    await usersTable();
    expect(screen.queryByTestId('loading-overlay')).not.toBeInTheDocument();
  });

  it('shows each user as Invited or Activated, and admins with an Admin badge', async () => {
    const fake = createFakeAdminApi({
      users: [
        makeUser(ADMIN, { admin: true }),
        makeUser('new@example.com', { activated: false }),
        makeUser('old@example.com'),
      ],
    });
    server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
    openAs();
    const [admin, invited, activated] = bodyRows(await usersTable());
    expect(admin).toHaveTextContent(/Activated\s*Admin/);
    expect(invited).toHaveTextContent('Invited');
    expect(invited).not.toHaveTextContent('Admin');
    expect(activated).toHaveTextContent('Activated');
  });

  it('shows the status text when the list cannot be loaded', async () => {
    const fake = setup();
    fake.failNext.list = { status: 503, statusText: 'Service Unavailable', message: 'The database is not answering.' };
    const { user } = openAs();
    const modal = await dialog('Error');
    expect(modal).toHaveTextContent('Service Unavailable');
    expect(modal).not.toHaveTextContent('The database is not answering.');
    await user.click(within(modal).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('the admin check', () => {
  it.each([
    ['without the admin flag', { 'user@example.com': {} }],
    ['when the lookup fails', {}],
  ])('shows the permission message and no table %s', async (_case, accounts) => {
    // The header logs its own failed lookup for developers; expected here.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fake = setup({ accounts });
    const { user, router } = openAs('user@example.com');
    const modal = await dialog('Error');
    expect(modal).toHaveTextContent(NO_PERMISSION);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add User' })).not.toBeInTheDocument();
    // Said once: the modal holds the sentence while it is open.
    expect(screen.getAllByText(NO_PERMISSION)).toHaveLength(1);
    await user.click(within(modal).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    // Nothing on the admin API was even asked for.
    expect(fake.calls).toEqual([]);
    // No dead end: the reason stays in the page with the way back to the invoices.
    expect(screen.getAllByText(NO_PERMISSION)).toHaveLength(1);
    await user.click(screen.getByRole('link', { name: 'Back to the invoices' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/invoice'));
  });

  it('tells an account that is not allowed at all so, and offers Sign Out', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    setup();
    server.use(
      http.get(`${API}/users/:email`, () =>
        HttpResponse.json(
          { message: 'Your account is not allowed to use this portal. Please contact the website administrator.' },
          { status: 401 },
        ),
      ),
    );
    const { user, router, auth } = openAs('outsider@example.com');
    await user.click(within(await dialog('Error')).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('You are signed in as outsider@example.com.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to the invoices' })).not.toBeInTheDocument();
    await user.click(within(screen.getByRole('main')).getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(auth.calls).toContain('signOut');
  });

  it('shows the loading overlay and no table until the lookup confirms the admin', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const fake = createFakeAdminApi({ users: [makeUser(ADMIN, { admin: true })] });
    server.use(
      http.get(`${API}/users/:email`, async ({ request }) => {
        await answered;
        expect(request.headers.get('authorization')).toBe(`Bearer token-of-${ADMIN}`);
        return HttpResponse.json({ email: ADMIN, activated: true, admin: true });
      }),
      ...fake.handlers,
    );
    openAs();
    expect(await screen.findByTestId('loading-overlay')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    answer();
    expect(await usersTable()).toBeInTheDocument();
  });
});

describe('adding a user', () => {
  it('opens a modal with a labelled e-mail field and a submit action', async () => {
    setup();
    const { user } = openAs();
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const modal = await dialog('Add User');
    expect(within(modal).getByLabelText('Email address')).toHaveFocus();
    expect(within(modal).getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows "Required" and "Invalid email address" only once the field has been touched', async () => {
    const fake = setup();
    const { user } = openAs();
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const modal = await dialog('Add User');
    const field = within(modal).getByLabelText('Email address');
    await user.type(field, 'not-an');
    expect(modal).not.toHaveTextContent('Invalid email address');
    await user.tab();
    expect(await within(modal).findByText('Invalid email address')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    expect(await within(modal).findByText('Required')).toBeInTheDocument();
    await user.type(field, 'someone@example.com');
    await waitFor(() => expect(within(modal).queryByText('Required')).not.toBeInTheDocument());
    expect(fake.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('says "Required" when an untouched empty form is submitted, and calls nothing', async () => {
    const fake = setup();
    const { user } = openAs();
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const modal = await dialog('Add User');
    expect(modal).not.toHaveTextContent('Required');
    await user.click(within(modal).getByRole('button', { name: 'Submit' }));
    expect(await within(modal).findByText('Required')).toBeInTheDocument();
    expect(fake.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('creates (bearer, JSON, empty body), then registers without auth, reloads 1000 ms later and closes on that reload', async () => {
    const fake = setup();
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    const modal = await dialog('Add User');
    await user.type(within(modal).getByLabelText('Email address'), ' New.Person@Example.com ');
    const before = fake.calls.length;
    await user.click(within(modal).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(fake.calls.some((call) => call.path === '/users' && call.method === 'POST')).toBe(true));
    const [create, register] = fake.calls.slice(before);
    expect(create).toMatchObject({
      method: 'POST',
      path: '/users/new.person%40example.com',
      authorization: `Bearer token-of-${ADMIN}`,
      contentType: 'application/json',
      body: '',
    });
    expect(register).toMatchObject({
      method: 'POST',
      path: '/users',
      authorization: null,
      contentType: 'application/json',
      body: JSON.stringify({ userId: 'new.person@example.com' }),
    });
    // Still open, under the overlay, until the reload.
    expect(screen.getByRole('dialog', { name: 'Add User' })).toBeInTheDocument();
    expect(screen.getByTestId('loading-overlay')).toBeInTheDocument();

    await waitFor(
      () => expect(screen.queryByRole('dialog', { name: 'Add User' })).not.toBeInTheDocument(),
      throughTheReload(),
    );
    const reload = fake.calls.slice(before).find((call) => call.method === 'GET' && call.path.startsWith('/users?'));
    expect(reload).toBeDefined();
    // Not before the spec's 1000 ms. How much later is the machine's business: a busy one fires timers late,
    // so the pause itself is held by its constant rather than by an upper bound on the clock.
    expect(RELOAD_AFTER_REGISTER_MS).toBe(1000);
    expect(reload!.at - register!.at).toBeGreaterThanOrEqual(1000);
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))).toHaveLength(3));
    expect(screen.getByRole('table')).toHaveTextContent('new.person@example.com');
    expect(screen.getByRole('table')).toHaveTextContent('Invited');
  });

  it('shows "already on the list" under the field, not in another modal, and does not register', async () => {
    const fake = setup();
    const { user } = openAs();
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const addModal = await dialog('Add User');
    const field = within(addModal).getByLabelText('Email address');
    await user.type(field, 'User@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await within(addModal).findByText('user@example.com is already on the list.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Error' })).not.toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/user@example.com is already on the list\./);
    expect(field).toHaveValue('User@example.com');
    await waitFor(() => expect(field).toHaveFocus());
    expect(fake.summary()).not.toContain('POST /users');
  });

  it("shows any other create failure's message in the error modal over the add modal", async () => {
    const fake = setup();
    fake.failNext.create = { status: 503, statusText: 'Service Unavailable', message: 'The sign-in service is down.' };
    const { user } = openAs();
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    await user.type(within(await dialog('Add User')).getByLabelText('Email address'), 'x@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const error = await dialog('Error');
    expect(error).toHaveTextContent('The sign-in service is down.');
    await user.click(within(error).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Error' })).not.toBeInTheDocument());
    const addModal = await dialog('Add User');
    expect(within(addModal).getByLabelText('Email address')).toHaveValue('x@example.com');
    await waitFor(() => expect(addModal).toContainElement(document.activeElement as HTMLElement));
  });

  it('offers to take over an account the portal did not make, and adds only once the admin ticks it', async () => {
    const fake = setup();
    fake.foreignAccounts.add('squatted@example.com');
    const { user } = openAs();
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const addModal = await dialog('Add User');
    expect(within(addModal).queryByRole('checkbox')).not.toBeInTheDocument();
    await user.type(within(addModal).getByLabelText('Email address'), 'squatted@example.com');
    await user.click(within(addModal).getByRole('button', { name: 'Submit' }));
    // The spec's error modal with the server's message first; nothing was added.
    const error = await dialog('Error');
    expect(error).toHaveTextContent('already has a sign-in account that this portal did not make');
    await user.click(within(error).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Error' })).not.toBeInTheDocument());

    const takeOver = within(await dialog('Add User')).getByRole('checkbox', {
      name: /Take over the existing account: delete it .* make a new one for squatted@example.com/,
    });
    expect(takeOver).not.toBeChecked();
    // Another address is not offered it.
    const field = within(await dialog('Add User')).getByLabelText('Email address');
    await user.type(field, 'x');
    expect(within(await dialog('Add User')).queryByRole('checkbox')).not.toBeInTheDocument();
    await user.type(field, '{Backspace}');
    await user.click(within(await dialog('Add User')).getByRole('checkbox'));
    await user.click(within(await dialog('Add User')).getByRole('button', { name: 'Submit' }));
    await waitFor(
      () => expect(screen.queryByRole('dialog', { name: 'Add User' })).not.toBeInTheDocument(),
      throughTheReload(),
    );
    const creates = fake.calls.filter((call) => call.method === 'POST' && call.path.startsWith('/users/'));
    expect(creates.map((call) => call.path)).toEqual([
      '/users/squatted%40example.com',
      '/users/squatted%40example.com?takeOver=true',
    ]);
    // The spec's register call follows as for every add.
    expect(fake.summary()).toContain('POST /users');
    expect(await screen.findByText('squatted@example.com was added.', {}, throughTheReload())).toBeInTheDocument();
  });

  it('shows the status text when registering fails', async () => {
    const fake = setup();
    fake.failNext.register = { status: 500, statusText: 'Internal Server Error', message: 'Something broke.' };
    const { user } = openAs();
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    await user.type(within(await dialog('Add User')).getByLabelText('Email address'), 'x@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const modal = await dialog('Error');
    expect(modal).toHaveTextContent('Internal Server Error');
    expect(modal).not.toHaveTextContent('Something broke.');
    await user.click(within(modal).getByRole('button', { name: 'Continue' }));
    expect(within(await dialog('Add User')).getByLabelText('Email address')).toHaveValue('x@example.com');
  });
});

describe('deleting a user', () => {
  it('asks "Are you sure?" naming the user; "No" does nothing', async () => {
    const fake = setup();
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'Delete user@example.com' }));
    const modal = await dialog('Are you sure?');
    expect(modal).toHaveTextContent('Are you sure you want to delete user user@example.com');
    await user.click(within(modal).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.summary().some((call) => call.startsWith('DELETE'))).toBe(false);
  });

  it('on "Yes" closes the modal, deletes with the bearer token, then reloads the list', async () => {
    const fake = setup();
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'Delete user@example.com' }));
    const before = fake.calls.length;
    await user.click(within(await dialog('Are you sure?')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('table')).not.toHaveTextContent('user@example.com'));
    const [remove, reload] = fake.calls.slice(before);
    expect(remove).toMatchObject({
      method: 'DELETE',
      path: '/users/user%40example.com',
      authorization: `Bearer token-of-${ADMIN}`,
    });
    expect(reload).toMatchObject({ method: 'GET', path: '/users?limit=50&offset=0' });
    expect(bodyRows(screen.getByRole('table'))).toHaveLength(1);
  });

  it('says when the sign-in account is deleted later because the sign-in service did not answer', async () => {
    const fake = setup();
    fake.cleanupPending.add('user@example.com');
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'Delete user@example.com' }));
    await user.click(within(await dialog('Are you sure?')).getByRole('button', { name: 'Yes' }));
    expect(
      await screen.findByText(
        /user@example.com was deleted and can no longer sign in\. .* deleted automatically once it does/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('table')).not.toHaveTextContent('user@example.com');
  });

  it("shows the server's reason when a delete is refused", async () => {
    const fake = setup();
    fake.failNext.delete = {
      status: 409,
      statusText: 'Conflict',
      message: 'You cannot remove the last administrator.',
    };
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'Delete user@example.com' }));
    await user.click(within(await dialog('Are you sure?')).getByRole('button', { name: 'Yes' }));
    const error = await dialog('Error');
    expect(error).toHaveTextContent('You cannot remove the last administrator.');
    await user.click(within(error).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete user@example.com' })).toHaveFocus());
  });
});

describe('the list for thousands', () => {
  it("keeps the admin's own Delete, disabled, with the reason", async () => {
    setup();
    openAs();
    const table = await usersTable();
    const own = within(table).getByRole('button', { name: `Delete ${ADMIN}` });
    expect(own).toBeDisabled();
    expect(own).toHaveAccessibleDescription('You cannot delete your own account.');
    expect(within(table).getByRole('button', { name: 'Delete user@example.com' })).toBeEnabled();
  });

  it('shows the date added and by whom, and asks the server for the chosen status, order and page size', async () => {
    const fake = setup();
    const { user } = openAs();
    const table = await usersTable();
    const [, second] = bodyRows(table);
    expect(within(second!).getAllByRole('cell')[3]).toHaveTextContent(formatDateTime('2025-01-01T00:00:00.000Z'));
    expect(within(second!).getAllByRole('cell')[4]).toHaveTextContent('admin@example.com');
    await user.selectOptions(screen.getByLabelText('Status'), 'Invited');
    await user.selectOptions(screen.getByLabelText('Order'), 'Newest first');
    await user.selectOptions(screen.getByLabelText('Per page'), '100');
    await waitFor(() => expect(fake.calls.at(-1)?.path).toBe('/users?limit=100&offset=0&status=invited&sort=-added'));
  });

  it('exports the filtered list as CSV, every page of it', async () => {
    const fake = setup({ users: [ADMIN, 'user@example.com', 'x,"y"@example.com'] });
    const files: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (files.push(blob as Blob), 'blob:test/csv'));
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(fake.calls.at(-1)?.path).toBe('/users?limit=1000&offset=0');
    expect((await files[0]!.text()).split('\r\n')).toEqual([
      'email,status,admin,added,added_by',
      'admin@example.com,activated,yes,2025-01-01T00:00:00.000Z,admin@example.com',
      'user@example.com,activated,no,2025-01-01T00:00:00.000Z,admin@example.com',
      '"x,""y""@example.com",activated,no,2025-01-01T00:00:00.000Z,admin@example.com',
      '',
    ]);
  });

  it('makes someone an administrator from the row menu, after "Are you sure?", and says so', async () => {
    const fake = setup();
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'More actions for user@example.com' }));
    await user.click(await screen.findByRole('button', { name: 'Make admin' }));
    const confirm = await dialog('Are you sure?');
    expect(confirm).toHaveTextContent('Make user@example.com an administrator?');
    expect(fake.calls.some((call) => call.method === 'PATCH')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Make admin' }));
    const notice = (await screen.findByText('user@example.com is now an administrator.')).closest('[role="status"]');
    // The new administrator's enrollment code, shown this once to the admin who promoted them.
    expect(notice).toHaveTextContent(`Enrollment code for user@example.com's first passkey: ${FAKE_ENROLLMENT_CODE}`);
    const patch = fake.calls.find((call) => call.method === 'PATCH');
    expect(patch).toMatchObject({
      path: '/users/user%40example.com',
      authorization: `Bearer token-of-${ADMIN}`,
      body: JSON.stringify({ admin: true }),
    });
    // The mutation reloads its own list: the row now carries the badge.
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))[1]).toHaveTextContent('Admin'));
  });

  it('gives someone the finance role from the row menu, after "Are you sure?", and shows the badge', async () => {
    const fake = setup();
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'More actions for user@example.com' }));
    await user.click(await screen.findByRole('button', { name: 'Give finance role' }));
    const confirm = await dialog('Are you sure?');
    expect(confirm).toHaveTextContent('Give user@example.com the finance role?');
    await user.click(within(confirm).getByRole('button', { name: 'Give finance role' }));
    expect(await screen.findByText('user@example.com now has the finance role.')).toBeInTheDocument();
    // The role opens every invoice behind a passkey: the code for the first one is shown to whoever gave it.
    expect(screen.getByRole('status')).toHaveTextContent(
      `Enrollment code for user@example.com's first passkey: ${FAKE_ENROLLMENT_CODE}`,
    );
    expect(fake.calls.find((call) => call.method === 'PATCH')).toMatchObject({
      path: '/users/user%40example.com',
      body: JSON.stringify({ finance: true }),
    });
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))[1]).toHaveTextContent('Finance'));
  });

  it('disables "Remove admin" for the only administrator, with the reason in the menu, and asks nothing', async () => {
    const fake = setup();
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: `More actions for ${ADMIN}` }));
    const remove = await screen.findByRole('button', { name: /^Remove admin/ });
    await waitFor(() => expect(remove).toHaveAttribute('aria-disabled', 'true'));
    expect(remove).toHaveAccessibleDescription('You are the only admin. Make someone else an admin first.');
    expect(screen.getByText('You are the only admin. Make someone else an admin first.')).toBeVisible();
    expect(fake.summary()).toContain('GET /users?limit=25&offset=0&status=admin');
    await user.click(remove);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fake.calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('shows why one cannot delete oneself in the row, not only to a screen reader', async () => {
    setup();
    openAs();
    const table = await usersTable();
    const own = bodyRows(table).find((row) => within(row).queryByRole('button', { name: `Delete ${ADMIN}` }))!;
    expect(within(own).getByText('You cannot delete your own account.')).toBeVisible();
    expect(within(own).getByText('You cannot delete your own account.')).not.toHaveClass('visually-hidden');
  });

  it('changes no role when the confirmation is answered "No"', async () => {
    const fake = setup({
      users: [ADMIN, 'second-admin@example.com', 'user@example.com'],
      admins: [ADMIN, 'second-admin@example.com'],
    });
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: `More actions for ${ADMIN}` }));
    await user.click(await screen.findByRole('button', { name: 'Remove admin' }));
    const confirm = await dialog('Are you sure?');
    expect(confirm).toHaveTextContent(`Remove the administrator role from ${ADMIN}?`);
    await user.click(within(confirm).getByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.calls.some((call) => call.method === 'PATCH')).toBe(false);
    await waitFor(() => expect(screen.getByRole('button', { name: `More actions for ${ADMIN}` })).toHaveFocus());
  });

  it('resends an invitation to someone who has not set a password: the reset mail', async () => {
    const fake = createFakeAdminApi({
      users: [makeUser(ADMIN, { admin: true }), makeUser('new@example.com', { activated: false })],
    });
    server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
    const auth = createFakeAuthClient({ signedInAs: ADMIN });
    const { user } = renderApp('/admin', { auth });
    await usersTable();
    await user.click(screen.getByRole('button', { name: `More actions for ${ADMIN}` }));
    expect(screen.queryByRole('button', { name: 'Resend invitation' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'More actions for new@example.com' }));
    await user.click(await screen.findByRole('button', { name: 'Resend invitation' }));
    expect(
      await screen.findByText('A new invitation (password mail) was sent to new@example.com.'),
    ).toBeInTheDocument();
    expect(auth.calls).toContain('reset:new@example.com');
  });

  it('confirms an add with a notice that shows the new row', async () => {
    setup();
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    await user.type(within(await dialog('Add User')).getByLabelText('Email address'), 'zed@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const notice = await screen.findByText('zed@example.com was added.', {}, throughTheReload());
    await user.click(within(notice.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'Show' }));
    expect(screen.getByLabelText('Search by email')).toHaveValue('zed@example.com');
  });
});

describe('search and paging', { timeout: MANY_ROWS_TEST_TIMEOUT_MS }, () => {
  // jsdom does not scroll; the browser's scrolling is checked end to end.
  let scrollTo: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => scrollTo.mockRestore());

  const many = (count: number) =>
    Array.from({ length: count }, (_, index) => `user${String(index).padStart(3, '0')}@example.com`);

  it('pages 50 at a time with the total', async () => {
    const fake = setup({ users: [ADMIN, ...many(119)] });
    const { user } = openAs();
    const table = await usersTable();
    expect(bodyRows(table)).toHaveLength(50);
    expect(screen.getByText('1–50 of 120 users')).toBeInTheDocument();
    expect(pagerButton('Previous')).toBeDisabled();
    await user.click(pagerButton('Next'));
    await screen.findByText('51–100 of 120 users');
    // The next page starts at the top of the screen, not at the pager.
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0 });
    await user.click(pagerButton('Next'));
    await screen.findByText('101–120 of 120 users');
    expect(bodyRows(screen.getByRole('table'))).toHaveLength(20);
    expect(pagerButton('Next')).toBeDisabled();
    expect(fake.summary().filter((call) => call.startsWith('GET'))).toEqual([
      'GET /users?limit=50&offset=0',
      'GET /users?limit=50&offset=50',
      'GET /users?limit=50&offset=100',
    ]);
    expect(pagerButton('Page 3')).toHaveAttribute('aria-current', 'page');
    await user.click(pagerButton('Page 1'));
    await screen.findByText('1–50 of 120 users');
  });

  it('searches on the server once typing pauses, from the first page', async () => {
    const fake = setup({ users: [ADMIN, ...many(119)] });
    const { user } = openAs();
    await usersTable();
    await user.click(pagerButton('Next'));
    await screen.findByText('51–100 of 120 users');
    await searchFor('user11');
    await screen.findByText('1–9 of 9 users');
    expect(bodyRows(screen.getByRole('table'))).toHaveLength(9);
    const searches = fake.summary().filter((call) => call.includes('search='));
    expect(searches).toEqual(['GET /users?limit=50&offset=0&search=user11']);
    await searchFor('nobody');
    expect(await screen.findByText('No users match "nobody".')).toBeInTheDocument();
  });
});

describe('the list state in the address', { timeout: MANY_ROWS_TEST_TIMEOUT_MS }, () => {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  const many = (count: number) =>
    Array.from({ length: count }, (_, index) => `user${String(index).padStart(3, '0')}@example.com`);

  it('puts search, status, order, page and size in the address as they are chosen', async () => {
    setup({ users: [ADMIN, ...many(119)] });
    const { user, router } = openAs();
    await usersTable();
    await user.selectOptions(screen.getByLabelText('Status'), 'Activated');
    await user.selectOptions(screen.getByLabelText('Order'), 'Email Z–A');
    await user.selectOptions(screen.getByLabelText('Per page'), '25');
    await searchFor('user');
    await waitFor(() => expect(router.state.location.search).toContain('q=user'));
    await user.click(pagerButton('Next'));
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        q: 'user',
        status: 'activated',
        sort: '-email',
        page: '2',
        size: '25',
      }),
    );
  });

  it('opens a shared link on the list it names, and Back returns to the page before', async () => {
    const fake = setup({ users: [ADMIN, ...many(119)] });
    const { user, router } = renderApp('/admin?q=user&status=invited&sort=-added&page=2&size=25', {
      auth: createFakeAuthClient({ signedInAs: ADMIN }),
    });
    await usersTable();
    expect(screen.getByLabelText('Search by email')).toHaveValue('user');
    expect(screen.getByLabelText('Status')).toHaveValue('invited');
    expect(screen.getByLabelText('Order')).toHaveValue('-added');
    expect(screen.getByLabelText('Per page')).toHaveValue('25');
    expect(fake.calls.find((call) => call.method === 'GET')?.path).toBe(
      '/users?limit=25&offset=25&search=user&status=invited&sort=-added',
    );
    await user.click(pagerButton('Page 3'));
    await waitFor(() => expect(router.state.location.search).toContain('page=3'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(pagerButton('Page 2')).toHaveAttribute('aria-current', 'page'));
    expect(router.state.location.search).toBe('?q=user&status=invited&sort=-added&page=2&size=25');
  });

  it('reads nonsense in the address as the defaults', async () => {
    const fake = setup();
    renderApp('/admin?status=nobody&sort=sideways&page=-4&size=7', {
      auth: createFakeAuthClient({ signedInAs: ADMIN }),
    });
    await usersTable();
    expect(fake.calls.find((call) => call.method === 'GET')?.path).toBe('/users?limit=50&offset=0');
  });

  it('clears a notice when the page or the filter changes', async () => {
    setup({ users: [ADMIN, ...many(60)] });
    const { user } = openAs();
    await usersTable();
    await user.click(screen.getByLabelText('Delete user000@example.com'));
    await user.click(within(await dialog('Are you sure?')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('user000@example.com was deleted.')).toBeInTheDocument();
    await user.click(pagerButton('Next'));
    await screen.findByText('51–60 of 60 users');
    expect(screen.queryByText('user000@example.com was deleted.')).not.toBeInTheDocument();
    await user.click(pagerButton('Previous'));
    await screen.findByText('1–50 of 60 users');
    expect(screen.queryByText('user000@example.com was deleted.')).not.toBeInTheDocument();
  });

  it('after deleting the last row of the last page shows the page before, keeping the notice', async () => {
    setup({ users: [ADMIN, ...many(50)] });
    const { user, router } = renderApp('/admin?page=2', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
    await screen.findByText('51–51 of 51 users');
    await user.click(screen.getByLabelText('Delete user049@example.com'));
    await user.click(within(await dialog('Are you sure?')).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await settle();
    await screen.findByText('1–50 of 50 users');
    expect(router.state.location.search).toBe('');
    expect(screen.getByText('user049@example.com was deleted.')).toBeInTheDocument();
  });
});
