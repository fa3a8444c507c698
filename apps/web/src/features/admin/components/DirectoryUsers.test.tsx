import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { createFakeAdminApi, makeUser } from '../testing/fake-admin-api';

const ADMIN = 'admin@example.com';
const KEPT = 'kept@example.com';
const GONE = 'gone@example.com';
const REFUSAL =
  'kept@example.com is kept by your company directory (SCIM provisioning). Change or remove them in the directory (Microsoft Entra ID, Okta, …) instead: a change made here would be undone by its next sync.';

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

async function rowOf(email: string) {
  const table = await screen.findByRole('table', { name: 'Allowed users' });
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByRole('checkbox', { name: `Select ${email}` }));
  if (!row) throw new Error(`no row for ${email}`);
  return row;
}

describe('users the company directory keeps (SCIM)', () => {
  it('are marked on their row, and a deactivated one says so instead of Activated', async () => {
    setup();
    renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
    const kept = await rowOf(KEPT);
    const badge = within(kept).getByText('Directory');
    expect(badge).toHaveAttribute('title', expect.stringMatching(/company directory.*in the directory/));
    expect(within(kept).getByText('Activated')).toBeInTheDocument();
    const gone = await rowOf(GONE);
    expect(within(gone).getByText('Deactivated')).toBeInTheDocument();
    expect(within(gone).queryByText('Activated')).not.toBeInTheDocument();
    const local = await rowOf('local@example.com');
    expect(within(local).queryByText('Directory')).not.toBeInTheDocument();
    expect(within(local).getByText(ADMIN)).toBeInTheDocument();
  });

  it("show the server's refusal of a local delete, which says where to change them", async () => {
    const fake = setup();
    fake.failNext.delete = { status: 409, statusText: 'Conflict', message: REFUSAL, code: 'managed-by-directory' };
    const { user } = renderApp('/admin', { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
    await rowOf(KEPT);
    await user.click(screen.getByRole('button', { name: `Delete ${KEPT}` }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Are you sure?' })).getByRole('button', { name: 'Yes' }),
    );
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent(REFUSAL);
  });
});
