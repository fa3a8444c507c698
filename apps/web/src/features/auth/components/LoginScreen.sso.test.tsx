import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const sso = { sso: { providerId: 'oidc.acme', label: 'Acme' } };
const providerError = (code: string) => Object.assign(new Error(`Firebase: Error (${code}).`), { code });

describe('the login screen with single sign-on', () => {
  it('keeps the form as it is and adds "Sign in with <company>" under it', async () => {
    renderApp('/login', { config: sso });
    const button = await screen.findByRole('button', { name: 'Sign in with Acme' });
    const form = screen.getByRole('button', { name: 'Submit' }).closest('form')!;
    expect(form).not.toContainElement(button);
    expect(form.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByLabelText('Email address')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('button', { name: 'Forgot Password' })).toBeInTheDocument();
  });

  it('shows no such button without the configuration', async () => {
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Login' });
    expect(screen.queryByRole('button', { name: /Sign in with/ })).not.toBeInTheDocument();
  });

  it('readies the pop-up after the first paint, then signs in with the configured provider and goes on to the link', async () => {
    server.use(accountLookup({ 'user@example.com': {} }));
    const auth = createFakeAuthClient();
    auth.providerAccount = { uid: 'uid-sso', email: 'user@example.com' };
    const { user, router } = renderApp('/login', {
      auth,
      config: sso,
      state: { from: { pathname: '/invoice', search: '?parcelCode=DEMO1' } },
    });
    await waitFor(() => expect(auth.calls).toContain('prepareProviderSignIn'));
    await user.click(await screen.findByRole('button', { name: 'Sign in with Acme' }));
    expect(auth.calls).toContain('signInWithProvider:oidc.acme');
    await waitFor(() => expect(router.state.location.pathname).toBe('/invoice'));
    expect(router.state.location.search).toBe('?parcelCode=DEMO1');
  });

  it('says nothing when the person closes the pop-up, and how to go on when it was blocked', async () => {
    const auth = createFakeAuthClient();
    const { user } = renderApp('/login', { auth, config: sso });
    const button = await screen.findByRole('button', { name: 'Sign in with Acme' });
    await user.click(button);
    await waitFor(() => expect(auth.calls).toContain('signInWithProvider:oidc.acme'));
    await waitFor(() => expect(button).toBeEnabled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    auth.failNextSignIn = providerError('auth/popup-blocked');
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your browser blocked the Acme sign-in window. Please allow pop-ups for this site and try again.',
    );
    auth.failNextSignIn = providerError('auth/account-exists-with-different-credential');
    await user.click(button);
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Your Acme account could not be matched to your portal account. Please contact the website administrator.',
      ),
    );
  });
});
