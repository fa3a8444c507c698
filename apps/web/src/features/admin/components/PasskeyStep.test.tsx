import type { StepUpStatus } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { createFakeAdminApi, FAKE_ENROLLMENT_CODE, makeUser } from '../testing/fake-admin-api';
import { allowedUserRow } from '../testing/allowed-users-table';

const ADMIN = 'admin@example.com';
const OTHER_ADMIN = 'second-admin@example.com';
const USER = 'user@example.com';
const NO_BROWSER_SUPPORT = 'This browser cannot use passkeys. Please use a current Chrome, Edge, Safari or Firefox.';

function setup(stepUp?: StepUpStatus) {
  const fake = createFakeAdminApi({
    users: [makeUser(ADMIN, { admin: true }), makeUser(OTHER_ADMIN, { admin: true }), makeUser(USER)],
    ...(stepUp && { stepUp }),
  });
  server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
  return fake;
}

const openAdminPage = () =>
  renderApp('/admin', {
    auth: createFakeAuthClient({ signedInAs: ADMIN, accounts: { [ADMIN]: { uid: 'uid-admin', password: 'secret' } } }),
  });
describe('the passkey step of the admin page', () => {
  it('first visit: explains the passkey and offers to set one up, with no list until it is done', async () => {
    const fake = setup({ passkeys: 0, steppedUpUntil: null, maxAgeSeconds: 600, recentSignIn: true });
    openAdminPage();
    const card = await screen.findByRole('region', { name: 'Set up a passkey' });
    expect(card).toHaveTextContent('as well as their password');
    expect(card).toHaveTextContent('again when you act after 10 minutes');
    expect(within(card).queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(fake.calls).toEqual([]);
    expect(fake.stepUp.asked).toBe(1);
  });

  it('a first passkey asks for the enrollment code: the password alone sets up nothing', async () => {
    setup({ passkeys: 0, steppedUpUntil: null, maxAgeSeconds: 600, recentSignIn: true });
    const { user } = openAdminPage();
    const card = await screen.findByRole('region', { name: 'Set up a passkey' });
    const code = within(card).getByLabelText('Enrollment code');
    expect(code).toHaveAccessibleDescription(/one-time code from the administrator who made you an administrator/);
    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('Please enter your enrollment code.');
    await user.type(code, 'ABCD-EFGH-JKMN-PQRS');
    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    await waitFor(() => expect(within(card).getByRole('alert')).toHaveTextContent(NO_BROWSER_SUPPORT));
  });

  it('asks for the password again first when the sign-in is not recent, and says which is wrong', async () => {
    setup({ passkeys: 0, steppedUpUntil: null, maxAgeSeconds: 600, recentSignIn: false });
    const { user, auth } = openAdminPage();
    const card = await screen.findByRole('region', { name: 'Set up a passkey' });
    const password = within(card).getByLabelText('Password');
    expect(password).toHaveAccessibleDescription(/enter your password again/);
    await user.type(within(card).getByLabelText('Enrollment code'), 'ABCD-EFGH-JKMN-PQRS');
    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('Please enter your password.');
    await user.type(password, 'wrong');
    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('That password is not right. Please try again.');
    // The right password gets as far as the browser, which here (jsdom) has no passkeys at all.
    await user.clear(password);
    await user.type(password, 'secret');
    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    await waitFor(() => expect(within(card).getByRole('alert')).toHaveTextContent(NO_BROWSER_SUPPORT));
    expect(auth.calls.filter((call) => call === 'confirmPassword')).toHaveLength(2);
  });

  it('every visit after: asks to confirm with the passkey, naming how long it holds', async () => {
    setup({ passkeys: 1, steppedUpUntil: null, maxAgeSeconds: 900, recentSignIn: false });
    const { user } = openAdminPage();
    const card = await screen.findByRole('region', { name: "Confirm it's you" });
    expect(card).toHaveTextContent('It stays open for 15 minutes at a time');
    expect(card).toHaveTextContent('Another administrator can reset it');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Use passkey' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent(NO_BROWSER_SUPPORT);
  });

  it('a call refused for a stale confirmation opens the passkey prompt; cancelling shows the refusal', async () => {
    const fake = setup();
    const { user } = openAdminPage();
    const row = await allowedUserRow(USER);
    const message = 'Your passkey confirmation has run out (it lasts 10 minutes). Please confirm it is you again.';
    fake.failNext.patch = { status: 403, code: 'step-up-required', message };
    await user.click(within(row).getByRole('button', { name: `More actions for ${USER}` }));
    await user.click(await screen.findByRole('button', { name: 'Make admin' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
    await user.click(within(confirm).getByRole('button', { name: 'Make admin' }));
    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(prompt).toHaveTextContent(message);
    await user.click(within(prompt).getByRole('button', { name: 'Use passkey' }));
    expect(await within(prompt).findByRole('alert')).toHaveTextContent(NO_BROWSER_SUPPORT);
    await user.click(within(prompt).getByRole('button', { name: 'Cancel' }));
    const error = await screen.findByRole('dialog', { name: 'Error' });
    expect(error).toHaveTextContent(message);
    expect(fake.summary().filter((call) => call.startsWith('PATCH'))).toEqual([
      `PATCH /users/${encodeURIComponent(USER)}`,
    ]);
  });
});

describe('ending sessions and resetting passkeys from the user list', () => {
  it('"End sessions" asks first, then ends them with the bearer token and says so', async () => {
    const fake = setup();
    const { user } = openAdminPage();
    const row = await allowedUserRow(USER);
    await user.click(within(row).getByRole('button', { name: `More actions for ${USER}` }));
    await user.click(await within(row).findByRole('button', { name: 'End sessions' }));
    const confirm = await screen.findByRole('dialog', { name: 'End sessions?' });
    expect(confirm).toHaveTextContent(`${USER} is signed out on every device and browser`);
    await user.click(within(confirm).getByRole('button', { name: 'End sessions' }));
    expect(await screen.findByText(`${USER} was signed out everywhere.`)).toBeInTheDocument();
    const call = fake.calls.find((entry) => entry.method === 'DELETE');
    expect(call?.path).toBe(`/users/${encodeURIComponent(USER)}/sessions`);
    expect(call?.authorization).toBe(`Bearer token-of-${ADMIN}`);
  });

  it('"Reset passkeys" is offered on other admins\' rows only, and shows the server\'s refusal', async () => {
    const fake = setup();
    const { user } = openAdminPage();
    const other = await allowedUserRow(OTHER_ADMIN);
    // The menu of your own row, and of someone who is not an administrator, has no "Reset passkeys".
    for (const email of [ADMIN, USER]) {
      const row = await allowedUserRow(email);
      await user.click(within(row).getByRole('button', { name: `More actions for ${email}` }));
      expect(await within(row).findByRole('button', { name: 'End sessions' })).toBeInTheDocument();
      expect(within(row).queryByRole('button', { name: 'Reset passkeys' })).not.toBeInTheDocument();
      await user.keyboard('{Escape}');
    }
    fake.failNext['reset-passkeys'] = { status: 503, message: 'The portal cannot reach its database.' };
    await user.click(within(other).getByRole('button', { name: `More actions for ${OTHER_ADMIN}` }));
    await user.click(await within(other).findByRole('button', { name: 'Reset passkeys' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset passkeys?' });
    expect(confirm).toHaveTextContent('is signed out everywhere');
    expect(confirm).toHaveTextContent('sets up a new one with the enrollment code you are shown next');
    await user.click(within(confirm).getByRole('button', { name: 'Reset passkeys' }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent('cannot reach its database');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(within(other).getByRole('button', { name: `More actions for ${OTHER_ADMIN}` }));
    await user.click(await within(other).findByRole('button', { name: 'Reset passkeys' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Reset passkeys?' })).getByRole('button', {
        name: 'Reset passkeys',
      }),
    );
    const notice = await screen.findByRole('status');
    await waitFor(() =>
      expect(notice).toHaveTextContent(
        `The passkeys of ${OTHER_ADMIN} were reset and they were signed out everywhere.`,
      ),
    );
    // The code the reset issued, shown this once, with how to hand it over.
    expect(notice).toHaveTextContent(`Enrollment code for ${OTHER_ADMIN}'s first passkey: ${FAKE_ENROLLMENT_CODE}`);
    expect(notice).toHaveTextContent('in person or by phone');
  });
});
