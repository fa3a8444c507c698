import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { renderApp } from '@/testing/render-app';

const sso = { sso: { providerId: 'oidc.acme', label: 'Acme' } };

describe('the single sign-on pop-up', () => {
  it('puts the spinner on its own button and gives the form back as soon as the pop-up is closed', async () => {
    const popup = { closed: false };
    const opened: string[] = [];
    const realOpen = window.open;
    window.open = (url) => {
      opened.push(String(url));
      return popup as Window;
    };
    onTestFinished(() => {
      window.open = realOpen;
    });
    const auth = createFakeAuthClient();
    // As the identity SDK does: the pop-up opens, and a closed one is reported only much later (here never).
    auth.signInWithProvider = () => {
      window.open('about:blank', 'sso');
      return new Promise<void>(() => {});
    };
    const { user } = renderApp('/login', { auth, config: sso });
    const button = await screen.findByRole('button', { name: 'Sign in with Acme' });
    const submit = screen.getByRole('button', { name: 'Submit' });
    await user.click(button);

    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button.querySelector('.spinner-border')).not.toBeNull();
    expect(submit.querySelector('.spinner-border')).toBeNull();

    expect(opened).toEqual(['about:blank']);
    popup.closed = true;
    await waitFor(() => expect(button).toBeEnabled());
    expect(submit).toBeEnabled();
    expect(button.querySelector('.spinner-border')).toBeNull();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
