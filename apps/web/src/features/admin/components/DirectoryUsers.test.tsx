import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { DIRECTORY_DELETE_REASON, DIRECTORY_ROLE_REASON } from '../messages';
import { createFakeAdminApi, makeUser } from '../testing/fake-admin-api';
import { allowedUserRow } from '../testing/allowed-users-table';

const ADMIN = 'admin@example.com';
const KEPT = 'kept@example.com';
const GONE = 'gone@example.com';

function setup() {
  const fake = createFakeAdminApi({
    users: [
      makeUser(ADMIN, { admin: true }),
      makeUser(KEPT, { managedBy: 'directory', createdBy: 'scim' }),
      makeUser(GONE, { managedBy: 'directory', createdBy: 'scim', suspended: true }),
      makeUser('local@example.com', { managedBy: null }),
    ],
  });
  server.use(accountLookup({ [ADMIN]: { admin: true } }), ...fake.handlers);
  return fake;
}

describe('users the company directory keeps (SCIM)', () => {
  it('are marked on their row, and a deactivated one says so instead of Activated', async () => {
    setup();
    renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
    const kept = await allowedUserRow(KEPT);
    const badge = within(kept).getByText('Directory');
    expect(badge).toHaveAttribute('title', expect.stringMatching(/company directory.*in the directory/));
    expect(within(kept).getByText('Activated')).toBeInTheDocument();
    const gone = await allowedUserRow(GONE);
    expect(within(gone).getByText('Deactivated')).toBeInTheDocument();
    expect(within(gone).queryByText('Activated')).not.toBeInTheDocument();
    const local = await allowedUserRow('local@example.com');
    expect(within(local).queryByText('Directory')).not.toBeInTheDocument();
    expect(within(local).getByText(ADMIN)).toBeInTheDocument();
  });

  it('cannot be deleted here: Delete and the selection box are disabled, with the reason in the row and read with them', async () => {
    const fake = setup();
    const { user } = renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
    const kept = await allowedUserRow(KEPT);
    const reason = within(kept).getByText(DIRECTORY_DELETE_REASON);
    expect(reason).toBeVisible();
    const remove = within(kept).getByRole('button', { name: `Delete ${KEPT}` });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription(DIRECTORY_DELETE_REASON);
    const box = within(kept).getByRole('checkbox', { name: `Select ${KEPT}` });
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription(DIRECTORY_DELETE_REASON);
    // A deactivated one too; a row the portal's administrators added keeps the spec's Delete.
    expect(within(await allowedUserRow(GONE)).getByRole('button', { name: `Delete ${GONE}` })).toBeDisabled();
    const local = await allowedUserRow('local@example.com');
    expect(within(local).queryByText(DIRECTORY_DELETE_REASON)).not.toBeInTheDocument();
    await user.click(within(local).getByRole('button', { name: 'Delete local@example.com' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(confirmation).toHaveTextContent('Are you sure you want to delete user local@example.com');
    await user.click(within(confirmation).getByRole('button', { name: 'No' }));
    // "Select all on this page" leaves the directory's rows (and one's own) out.
    await user.click(screen.getByRole('checkbox', { name: 'Select all on this page' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    expect(box).not.toBeChecked();
    expect(fake.users.has(KEPT)).toBe(true);
  });

  it("cannot have their roles changed here: the menu's role items are disabled, with the reason", async () => {
    setup();
    const { user } = renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
    await user.click(within(await allowedUserRow(KEPT)).getByRole('button', { name: `More actions for ${KEPT}` }));
    for (const name of ['Make admin', 'Give finance role']) {
      const item = await screen.findByRole('button', { name });
      expect(item).toHaveAttribute('aria-disabled', 'true');
      expect(item).toHaveAccessibleDescription(DIRECTORY_ROLE_REASON);
    }
    expect(screen.getByText(DIRECTORY_ROLE_REASON)).toBeVisible();
    expect(screen.getByRole('button', { name: 'End sessions' })).toBeEnabled();
  });
});
