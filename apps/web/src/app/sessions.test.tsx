import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const USER = 'user@example.com';
const accounts = { [USER]: { uid: 'uid-user', password: 'user-pass' } };

function endOwnSessions(answer: () => Response) {
  const seen: { authorization: string | null }[] = [];
  server.use(
    http.delete(`${API}/me/sessions`, ({ request }) => {
      seen.push({ authorization: request.headers.get('authorization') });
      return answer();
    }),
  );
  return seen;
}

describe('"Sign out everywhere" in the header', () => {
  it('asks first, ends every session on the server, then signs out here like Sign Out', async () => {
    server.use(accountLookup({ [USER]: {} }));
    const seen = endOwnSessions(() => HttpResponse.json({ email: USER, ended: true }));
    const auth = createFakeAuthClient({ accounts, signedInAs: USER });
    const { user, router } = renderApp('/invoice', { auth });
    const toggle = await screen.findByRole('button', { name: 'More account options' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    expect(dialog).toHaveTextContent('on every device and browser, this one included');
    expect(seen).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(seen).toEqual([{ authorization: `Bearer token-of-${USER}` }]);
    expect(auth.calls).toContain('signOut');
    expect(localStorage.getItem('userEmail')).toBeNull();
  });

  it('stays signed in and says so when the server could not end the sessions', async () => {
    server.use(accountLookup({ [USER]: {} }));
    endOwnSessions(() =>
      HttpResponse.json(
        { message: 'The sign-in service is unavailable. Please try again in a minute.', code: 'unavailable' },
        { status: 503 },
      ),
    );
    const auth = createFakeAuthClient({ accounts, signedInAs: USER });
    const { user, router } = renderApp('/invoice', { auth });
    await user.click(await screen.findByRole('button', { name: 'More account options' }));
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The sign-in service is unavailable');
    expect(auth.calls).not.toContain('signOut');
    expect(router.state.location.pathname).toBe('/invoice');
  });

  it('the menu closes with Escape and gives focus back to its button', async () => {
    server.use(accountLookup({ [USER]: {} }));
    // A page with no modal of its own, which would take Escape for itself.
    const { user } = renderApp('/no/such/page', { auth: createFakeAuthClient({ accounts, signedInAs: USER }) });
    const toggle = await screen.findByRole('button', { name: 'More account options' });
    await user.click(toggle);
    screen.getByRole('button', { name: 'Sign out everywhere' }).focus();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });
});

describe('a session the server ended after its maximum length', () => {
  it('signs out here and says why on /login, keeping the page to come back to', async () => {
    const cleared: string[] = [];
    server.use(
      accountLookup({ [USER]: {} }),
      http.delete(`${API}/me/step-up`, () => {
        cleared.push('step-up cookie');
        return new HttpResponse(null, { status: 204 });
      }),
      http.get(`${API}/invoice`, () =>
        HttpResponse.json(
          {
            message: 'Your session has ended after its maximum length. Please sign in again.',
            code: 'session-expired',
          },
          { status: 401 },
        ),
      ),
    );
    const auth = createFakeAuthClient({ accounts, signedInAs: USER });
    const { router } = renderApp('/invoice?parcelCode=DEMO000001', { auth });
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your session has ended after its maximum length. Please sign in again.',
    );
    expect(router.state.location.state).toEqual({ from: { pathname: '/invoice', search: '?parcelCode=DEMO000001' } });
    // A new ID token would carry the same sign-in time: no refresh is tried for this refusal.
    expect(auth.tokenRequests.filter((forced) => forced)).toEqual([]);
    expect(auth.calls).toContain('signOut');
    // The passkey confirmation's cookie goes with the session.
    await waitFor(() => expect(cleared).toEqual(['step-up cookie']));
  });
});
