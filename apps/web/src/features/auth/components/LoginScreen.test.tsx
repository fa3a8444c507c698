import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const accounts = { 'user@example.com': { uid: 'uid-user', password: 'user-pass' } };

async function submit(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  if (email) await user.type(await screen.findByLabelText('Email address'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

describe('the login screen', () => {
  it('has the title, two required fields, "Forgot Password" and "Submit"', async () => {
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('button', { name: 'Forgot Password' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
  });

  it.each([
    ['', ''],
    ['user@example.com', ''],
    ['', 'secret'],
  ])('asks for both fields (email "%s", password "%s") without calling the provider', async (email, password) => {
    const auth = createFakeAuthClient({ accounts });
    const { user } = renderApp('/login', { auth });
    await submit(user, email, password);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter both email and password');
    expect(auth.calls).toEqual([]);
  });

  it('shows "Either email or password is incorrect" for wrong credentials', async () => {
    const { user } = renderApp('/login', { auth: createFakeAuthClient({ accounts }) });
    await submit(user, 'user@example.com', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Either email or password is incorrect');
  });

  it('shows the provider\'s error text for other failures, or "Login failed"', async () => {
    const auth = createFakeAuthClient({ accounts });
    const { user } = renderApp('/login', { auth });
    auth.failNextSignIn = new Error('Firebase: Error (auth/user-disabled).');
    await submit(user, 'user@example.com', 'user-pass');
    expect(await screen.findByRole('alert')).toHaveTextContent('Firebase: Error (auth/user-disabled).');
    auth.failNextSignIn = Object.assign(new Error(''), { code: 'auth/internal-error' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Login failed'));
  });

  it('shows a spinner in Submit while signing in, and takes no second submit meanwhile', async () => {
    const auth = createFakeAuthClient({ accounts });
    let finish!: () => void;
    const signIn = auth.signIn.bind(auth);
    auth.signIn = async (email, password) => {
      await new Promise<void>((resolve) => (finish = resolve));
      return signIn(email, password);
    };
    server.use(accountLookup({ 'user@example.com': {} }));
    const { user, router } = renderApp('/login', { auth });
    await submit(user, 'user@example.com', 'user-pass');
    const button = screen.getByRole('button', { name: 'Submit' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button.querySelector('.spinner-border')).not.toBeNull();
    finish();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('goes to the root after a plain sign-in', async () => {
    server.use(accountLookup({ 'user@example.com': {} }));
    const { user, router } = renderApp('/login', { auth: createFakeAuthClient({ accounts }) });
    await submit(user, 'user@example.com', 'user-pass');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('goes back to a previous invoice path with its query', async () => {
    server.use(accountLookup({ 'user@example.com': {} }));
    const { user, router } = renderApp('/login', {
      auth: createFakeAuthClient({ accounts }),
      state: { from: { pathname: '/invoice', search: '?parcelCode=DEMO1' } },
    });
    await submit(user, 'user@example.com', 'user-pass');
    await waitFor(() => expect(router.state.location.pathname).toBe('/invoice'));
    expect(router.state.location.search).toBe('?parcelCode=DEMO1');
  });

  it('restores a stored beforeLogin invoice location when none was carried', async () => {
    server.use(accountLookup({ 'user@example.com': {} }));
    sessionStorage.setItem('beforeLogin', JSON.stringify({ pathname: '/invoice', search: '?parcelCode=Z9' }));
    const { user, router } = renderApp('/login', { auth: createFakeAuthClient({ accounts }) });
    await submit(user, 'user@example.com', 'user-pass');
    await waitFor(() => expect(router.state.location.search).toBe('?parcelCode=Z9'));
  });

  it('is not shown to a signed-in user', async () => {
    server.use(accountLookup({ 'user@example.com': {} }));
    const { router } = renderApp('/login', {
      auth: createFakeAuthClient({ accounts, signedInAs: 'user@example.com' }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'Login' })).not.toBeInTheDocument();
  });
});
