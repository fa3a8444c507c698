import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CompanySignInRefused } from '@/lib/auth';
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

  it('readies nothing for a page only looked at; the first key readies the pop-up', async () => {
    const auth = createFakeAuthClient();
    const { user } = renderApp('/login', { auth, config: sso });
    await screen.findByRole('button', { name: 'Sign in with Acme' });
    // A few tasks for effects that would run after the paint.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(auth.calls).not.toContain('prepareProviderSignIn');
    await user.keyboard('a');
    expect(auth.calls).toContain('prepareProviderSignIn');
  });

  it('readies the pop-up when the pointer reaches the button, then signs in with the configured provider and goes on to the link', async () => {
    server.use(accountLookup({ 'user@example.com': {} }));
    const auth = createFakeAuthClient();
    auth.providerAccount = { uid: 'uid-sso', email: 'user@example.com' };
    const { user, router } = renderApp('/login', {
      auth,
      config: sso,
      state: { from: { pathname: '/invoice', search: '?parcelCode=DEMO1' } },
    });
    const button = await screen.findByRole('button', { name: 'Sign in with Acme' });
    expect(auth.calls).not.toContain('prepareProviderSignIn');
    await user.hover(button);
    expect(auth.calls).toContain('prepareProviderSignIn');
    await user.click(button);
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

  it("shows the portal's refusal of a company sign-in on the login screen, signed out", async () => {
    const auth = createFakeAuthClient();
    auth.providerAccount = { uid: 'uid-sso', email: 'user@example.com' };
    const refusal =
      'This Acme account is not the one linked to your portal account. Please sign in with the Acme account you used before, or ask the website administrator to reset the link.';
    auth.refuseNextProviderSignIn = new CompanySignInRefused(refusal, {
      linkRequired: false,
      companyIdToken: 'company-token',
      email: 'user@example.com',
    });
    const { user, router } = renderApp('/login', { auth, config: sso });
    await user.click(await screen.findByRole('button', { name: 'Sign in with Acme' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('button', { name: 'Sign in with Acme' })).toBeEnabled();
  });

  it('asks for the password of an account that has one, and links the company account with it', async () => {
    server.use(accountLookup({ 'user@example.com': {} }));
    const auth = createFakeAuthClient({ accounts: { 'user@example.com': { uid: 'uid-1', password: 'pw-1' } } });
    auth.providerAccount = { uid: 'uid-1', email: 'user@example.com' };
    const prompt =
      'Your portal account has a password. To link your Acme account to it, sign in once with your email and password; after that, both ways work.';
    auth.refuseNextProviderSignIn = new CompanySignInRefused(prompt, {
      linkRequired: true,
      companyIdToken: 'company-token',
      email: 'user@example.com',
    });
    const { user, router } = renderApp('/login', {
      auth,
      config: sso,
      state: { from: { pathname: '/invoice', search: '?parcelCode=DEMO1' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign in with Acme' }));
    expect(await screen.findByRole('status')).toHaveTextContent(prompt);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toHaveValue('user@example.com');
    expect(screen.getByLabelText('Password')).toHaveFocus();

    // The portal's sentence when the link itself is refused, then the link made with the password.
    auth.failNextLink = new Error('To link your Acme account, please sign in with your email and password again.');
    await user.type(screen.getByLabelText('Password'), 'pw-1');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('To link your Acme account, please sign in');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/invoice'));
    expect(auth.calls.filter((call) => call.startsWith('signInAndLinkProvider'))).toEqual([
      'signInAndLinkProvider:user@example.com:company-token',
      'signInAndLinkProvider:user@example.com:company-token',
    ]);
    expect(auth.calls).not.toContain('signIn:user@example.com');
  });

  it('signs in with the password alone when the person chooses not to link', async () => {
    server.use(accountLookup({ 'user@example.com': {} }));
    const auth = createFakeAuthClient({ accounts: { 'user@example.com': { uid: 'uid-1', password: 'pw-1' } } });
    auth.providerAccount = { uid: 'uid-1', email: 'user@example.com' };
    auth.refuseNextProviderSignIn = new CompanySignInRefused('Your portal account has a password.', {
      linkRequired: true,
      companyIdToken: 'company-token',
      email: 'user@example.com',
    });
    const { user, router } = renderApp('/login', { auth, config: sso });
    await user.click(await screen.findByRole('button', { name: 'Sign in with Acme' }));
    await user.click(await screen.findByRole('button', { name: 'Sign in without linking my Acme account' }));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'pw-1');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/login'));
    expect(auth.calls).toContain('signIn:user@example.com');
    expect(auth.calls.some((call) => call.startsWith('signInAndLinkProvider'))).toBe(false);
  });
});
