import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { createFakeAdminApi, FAKE_ENROLLMENT_CODE, makeUser } from '../testing/fake-admin-api';
import { SEARCH_DEBOUNCE_MS } from './SearchField';

const ADMIN = 'admin@example.com';

/** The admin, the person promoted, and `others` more on the list (a second page once past the page size). */
function setup(others = 0) {
  const more = Array.from({ length: others }, (_, i) => `zz-colleague${String(i).padStart(3, '0')}@example.com`);
  const fake = createFakeAdminApi({
    users: [ADMIN, 'user@example.com', ...more].map((email) => makeUser(email, { admin: email === ADMIN })),
  });
  server.use(accountLookup({ [ADMIN]: { admin: true }, 'user@example.com': {} }), ...fake.handlers);
}

const searchFor = (term: string) =>
  act(async () => {
    fireEvent.change(screen.getByLabelText('Search by email'), { target: { value: term } });
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 100));
  });

async function promote(others = 0, query = '') {
  setup(others);
  const rendered = renderApp(`/admin${query}`, { auth: createFakeAuthClient({ signedInAs: ADMIN }) });
  const { user } = rendered;
  await screen.findByRole('table', { name: 'Allowed users' });
  await user.click(screen.getByRole('button', { name: 'More actions for user@example.com' }));
  await user.click(await screen.findByRole('button', { name: 'Make admin' }));
  const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
  await user.click(within(confirm).getByRole('button', { name: 'Make admin' }));
  await screen.findByText('user@example.com is now an administrator.');
  return rendered;
}

const codeNotice = () => screen.queryByText(new RegExp(`first passkey: ${FAKE_ENROLLMENT_CODE}`));

describe("a new administrator's enrollment code", () => {
  it('stays on screen when the list is filtered, until it is copied', async () => {
    const { user } = await promote();
    // After user-event's set-up, which puts a clipboard of its own in place.
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await searchFor('admin@');
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'user@example.com' })).not.toBeInTheDocument());
    expect(codeNotice()).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith(FAKE_ENROLLMENT_CODE);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    // Copied, it is a notice like any other: the next filter lets it go.
    await searchFor('user@');
    await waitFor(() => expect(codeNotice()).not.toBeInTheDocument());
  });

  it('goes when dismissed, and says how to copy it by hand when the clipboard refuses', async () => {
    const { user } = await promote();
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
    await user.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not copy: select the code and copy it by hand.');
    await searchFor('admin@');
    expect(codeNotice()).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(codeNotice()).not.toBeInTheDocument();
  });

  it('stays on screen on another page of the list, until dismissed', async () => {
    // The smallest page size, so the second page is reached with few rows to draw.
    const { user } = await promote(30, '?size=25');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'user@example.com' })).not.toBeInTheDocument());
    expect(codeNotice()).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(codeNotice()).not.toBeInTheDocument();
  });
});
