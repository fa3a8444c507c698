import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { createFakeAdminApi, FAKE_ENROLLMENT_CODE, makeUser } from '../testing/fake-admin-api';
import { allowedUserRow } from '../testing/allowed-users-table';

const ADMIN = 'admin@example.com';
const NEWCOMER = 'newcomer@example.com';
const FINANCE = 'finance@example.com';
const ENROLLED = 'enrolled@example.com';
const USER = 'user@example.com';
const ITEM = 'Show a new enrollment code';
const passkey = { createdAt: '2025-01-01T00:00:00.000Z', lastUsedAt: null };

function setup() {
  const fake = createFakeAdminApi({
    users: [
      makeUser(ADMIN, { admin: true, passkeys: [passkey] }),
      makeUser(NEWCOMER, { admin: true, passkeys: [] }),
      makeUser(FINANCE, { finance: true, passkeys: [] }),
      makeUser(ENROLLED, { admin: true, passkeys: [passkey] }),
      makeUser(USER),
    ],
  });
  server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
  const rendered = renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
  return { fake, ...rendered };
}

describe('a new enrollment code from the row menu', () => {
  it('is offered for someone who has not set up a passkey yet, and no one else', async () => {
    const { user } = setup();
    for (const [email, offered] of [
      [NEWCOMER, true],
      [FINANCE, true],
      [ENROLLED, false],
      [USER, false],
    ] as const) {
      const row = await allowedUserRow(email);
      await user.click(within(row).getByRole('button', { name: `More actions for ${email}` }));
      expect(await within(row).findByRole('button', { name: 'End sessions' })).toBeInTheDocument();
      expect(Boolean(within(row).queryByRole('button', { name: ITEM })), email).toBe(offered);
      await user.keyboard('{Escape}');
    }
  });

  it('shows the code in a dialog that takes focus, signs nobody out, and gives focus back to the row', async () => {
    const { fake, user } = setup();
    const row = await allowedUserRow(FINANCE);
    const toggle = within(row).getByRole('button', { name: `More actions for ${FINANCE}` });
    await user.click(toggle);
    await user.click(await within(row).findByRole('button', { name: ITEM }));

    const dialog = await screen.findByRole('dialog', { name: 'New enrollment code' });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    expect(dialog).toHaveTextContent(`Enrollment code for ${FINANCE}'s first passkey:`);
    expect(within(dialog).getByText(FAKE_ENROLLMENT_CODE)).toBeInTheDocument();
    expect(dialog).toHaveTextContent('in person or by phone');
    expect(dialog).toHaveTextContent('The code they were given before no longer works. They stay signed in');
    const call = fake.calls.find((entry) => entry.method === 'POST' && entry.path.includes('enrollment-code'));
    expect(call?.path).toBe(`/users/${encodeURIComponent(FINANCE)}/enrollment-code`);
    expect(call?.authorization).toBe(`Bearer token-of-${ADMIN}`);
    // Nothing of theirs ended: no sessions call, no reset.
    expect(fake.calls.filter((entry) => entry.method === 'DELETE')).toEqual([]);

    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(dialog).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith(FAKE_ENROLLMENT_CODE);
    expect(within(dialog).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    // Copying does not take the code away: the dialog stays until closed.
    expect(screen.getByRole('dialog', { name: 'New enrollment code' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(toggle).toHaveFocus());
  });

  it('for an administrator where a second one must approve: says it waits, and shows no code', async () => {
    const { fake, user } = setup();
    fake.secondPerson.needed = true;
    const row = await allowedUserRow(NEWCOMER);
    await user.click(within(row).getByRole('button', { name: `More actions for ${NEWCOMER}` }));
    await user.click(await within(row).findByRole('button', { name: ITEM }));
    const notice = await screen.findByRole('status');
    await waitFor(() =>
      expect(notice).toHaveTextContent(
        `A new enrollment code for ${NEWCOMER} waits for a second administrator's approval. Nothing has changed yet.`,
      ),
    );
    expect(screen.queryByRole('dialog', { name: 'New enrollment code' })).not.toBeInTheDocument();
    expect(screen.queryByText(FAKE_ENROLLMENT_CODE)).not.toBeInTheDocument();
  });

  it('tells a refusal in the error modal', async () => {
    const { fake, user } = setup();
    fake.failNext['enrollment-code'] = {
      status: 409,
      code: 'conflict',
      message: `${NEWCOMER} already has a passkey. Reset their passkeys to give them a new enrollment code.`,
    };
    const row = await allowedUserRow(NEWCOMER);
    await user.click(within(row).getByRole('button', { name: `More actions for ${NEWCOMER}` }));
    await user.click(await within(row).findByRole('button', { name: ITEM }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent('already has a passkey');
    expect(screen.queryByRole('dialog', { name: 'New enrollment code' })).not.toBeInTheDocument();
  });
});
