import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const SENT = 'A password reset email has been sent to your email address, please follow the link mentioned in it.';
const CHECK = 'Please check the email address you have provided.';

interface Seen {
  lookups: { email: string; authorization: string | null }[];
  puts: { email: string; authorization: string | null; contentType: string | null; body: unknown }[];
}

/**
 * The two unauthenticated calls as the API answers them. A bearer token is refused outright, and every
 * call is recorded so a test can also check that none was sent.
 */
function accountApi(
  accounts: Record<string, { activated: boolean }>,
  options: { lookup?: Response; put?: Response } = {},
): Seen {
  const seen: Seen = { lookups: [], puts: [] };
  const refused = () => HttpResponse.json({ message: 'This call takes no bearer token.' }, { status: 400 });
  server.use(
    http.get(`${API}/users/:email`, ({ request, params }) => {
      const email = String(params.email);
      seen.lookups.push({ email, authorization: request.headers.get('authorization') });
      if (request.headers.has('authorization')) return refused();
      if (options.lookup) return options.lookup.clone();
      const account = accounts[email];
      if (!account)
        return HttpResponse.json({ message: 'No account is registered for this e-mail address.' }, { status: 404 });
      return HttpResponse.json({ email, activated: account.activated });
    }),
    http.put(`${API}/users/:email`, async ({ request, params }) => {
      const email = String(params.email);
      seen.puts.push({
        email,
        authorization: request.headers.get('authorization'),
        contentType: request.headers.get('content-type'),
        body: await request.json(),
      });
      if (request.headers.has('authorization')) return refused();
      if (options.put) return options.put.clone();
      return HttpResponse.json({ email, activated: true });
    }),
  );
  return seen;
}

/** The login screen with the modal opened, after typing `loginEmail` into the login form. */
async function openModal(loginEmail = '') {
  const auth = createFakeAuthClient();
  // A token the SDK might still hold; the lookup and the PUT must not send it.
  auth.getIdToken = async () => 'stale-token';
  const view = renderApp('/login', { auth });
  if (loginEmail) await view.user.type(await screen.findByLabelText('Email address'), loginEmail);
  await view.user.click(await screen.findByRole('button', { name: 'Forgot Password' }));
  const dialog = await screen.findByRole('dialog', { name: 'Forgot Password' });
  return { ...view, dialog, field: within(dialog).getByLabelText('Email address') };
}

async function submitWith(dialog: HTMLElement, user: ReturnType<typeof renderApp>['user'], email?: string) {
  const field = within(dialog).getByLabelText('Email address');
  if (email !== undefined) {
    await user.clear(field);
    await user.type(field, email);
  }
  await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
}

describe('the Forgot Password modal', () => {
  it('opens from "Forgot Password" with the e-mail typed on the login form, "Cancel" and "Submit"', async () => {
    const { dialog, field } = await openModal('user@example.com');
    expect(field).toHaveValue('user@example.com');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(field).toHaveFocus();
  });

  it('opens with an empty field when nothing was typed', async () => {
    const { field } = await openModal();
    expect(field).toHaveValue('');
  });

  it('"Cancel" closes it, sends nothing, and gives focus back to "Forgot Password"', async () => {
    const seen = accountApi({});
    const { dialog, user, auth } = await openModal('user@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Forgot Password' })).toHaveFocus();
    expect(seen.lookups).toEqual([]);
    expect(auth.resets).toEqual([]);
  });

  it('shows field errors only once the field was touched: "Required", then "Invalid email address"', async () => {
    const seen = accountApi({});
    const { dialog, field, user } = await openModal();
    await user.type(field, 'x');
    await user.clear(field);
    expect(within(dialog).queryByText('Required')).not.toBeInTheDocument();
    await user.tab();
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Required');
    await user.type(field, 'not-an-email');
    expect(await within(dialog).findByText('Invalid email address')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(seen.lookups).toEqual([]);
  });

  it('does not flag a prefilled malformed address before it is touched', async () => {
    const { dialog } = await openModal('half-typed@');
    expect(within(dialog).queryByText('Invalid email address')).not.toBeInTheDocument();
  });

  it('says "Required" on a submit of an empty field, without calling the API', async () => {
    const seen = accountApi({});
    const { dialog, user } = await openModal();
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(seen.lookups).toEqual([]);
  });

  it('refuses a 10 KB address as "Invalid email address" without calling the API', async () => {
    const seen = accountApi({});
    const { dialog, field, user } = await openModal();
    await user.click(field);
    await user.paste(`${'a'.repeat(10 * 1024)}@example.com`);
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Invalid email address')).toBeInTheDocument();
    expect(seen.lookups).toEqual([]);
  });

  it('for an unknown address says "Please check the email address you have provided." and sends no mail', async () => {
    const seen = accountApi({});
    const { dialog, user, auth } = await openModal();
    await submitWith(dialog, user, 'nobody@example.com');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(CHECK);
    expect(seen.lookups).toEqual([{ email: 'nobody@example.com', authorization: null }]);
    expect(auth.resets).toEqual([]);
    expect(seen.puts).toEqual([]);
  });

  it.each([400, 500])('says the check-your-address message for a lookup answered %i', async (status) => {
    accountApi({}, { lookup: HttpResponse.json({ message: 'Something else' }, { status }) });
    const { dialog, user, auth } = await openModal();
    await submitWith(dialog, user, 'invited@example.com');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(CHECK);
    expect(auth.resets).toEqual([]);
  });

  it("shows the server's rate-limit message on a 429, and sends no mail", async () => {
    const wait = 'Too many requests. Please wait 42 seconds and try again.';
    accountApi({}, { lookup: HttpResponse.json({ message: wait }, { status: 429, headers: { 'Retry-After': '42' } }) });
    const { dialog, user, auth } = await openModal();
    await submitWith(dialog, user, 'invited@example.com');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(wait);
    expect(auth.resets).toEqual([]);
  });

  it("shows the server's message on a 503, not the address check, and sends no mail", async () => {
    const down = 'The portal cannot reach its database. Please try again in a minute.';
    accountApi({}, { lookup: HttpResponse.json({ message: down }, { status: 503 }) });
    const { dialog, user, auth } = await openModal();
    await submitWith(dialog, user, 'invited@example.com');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(down);
    expect(auth.resets).toEqual([]);
  });

  it('says the portal could not be reached when the lookup gets no response', async () => {
    server.use(http.get(`${API}/users/:email`, () => HttpResponse.error()));
    const { dialog, user, auth } = await openModal();
    await submitWith(dialog, user, 'invited@example.com');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The portal could not be reached. Please check your connection and try again.',
    );
    expect(auth.resets).toEqual([]);
  });

  it('carries the parcel code the person came with into the mail link, which opens in a new tab', async () => {
    accountApi({ 'invited@example.com': { activated: false } });
    sessionStorage.setItem('beforeLogin', JSON.stringify({ pathname: '/invoice', search: '?parcelCode=DEMO000002' }));
    try {
      const { dialog, user, auth } = await openModal();
      await submitWith(dialog, user, 'invited@example.com');
      expect(await within(dialog).findByText(SENT)).toBeInTheDocument();
      expect(auth.resets).toEqual([
        { email: 'invited@example.com', continueUrl: `${window.location.origin}/#/invoice?parcelCode=DEMO000002` },
      ]);
    } finally {
      sessionStorage.removeItem('beforeLogin');
    }
  });

  it('for a first-time account: looks it up, sends the mail to /#/invoice, marks it activated, and says so', async () => {
    const seen = accountApi({ 'invited@example.com': { activated: false } });
    const { dialog, user, auth } = await openModal();
    await submitWith(dialog, user, '  Invited@Example.com ');
    expect(await within(dialog).findByText(SENT)).toBeInTheDocument();
    expect(seen.lookups).toEqual([{ email: 'invited@example.com', authorization: null }]);
    expect(auth.resets).toEqual([{ email: 'invited@example.com', continueUrl: `${window.location.origin}/#/invoice` }]);
    expect(seen.puts).toEqual([
      { email: 'invited@example.com', authorization: null, contentType: 'application/json', body: { activated: true } },
    ]);
    expect(within(dialog).queryByLabelText('Email address')).not.toBeInTheDocument();
    const back = within(dialog).getByRole('button', { name: 'Back to Login' });
    expect(back).toHaveFocus();
    expect(back).toHaveAccessibleDescription(SENT);
    await user.click(back);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Login' })).toBeInTheDocument();
  });

  it('for an activated account: sends the mail and makes no PUT', async () => {
    const seen = accountApi({ 'user@example.com': { activated: true } });
    const { dialog, user, auth } = await openModal('user@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(SENT)).toBeInTheDocument();
    expect(auth.resets).toHaveLength(1);
    expect(seen.puts).toEqual([]);
  });

  it('sends one mail and one PUT for a double-click on "Submit"', async () => {
    const seen = accountApi({ 'invited@example.com': { activated: false } });
    const { dialog, user, auth } = await openModal('invited@example.com');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(SENT)).toBeInTheDocument();
    expect(seen.lookups).toHaveLength(1);
    expect(auth.resets).toHaveLength(1);
    expect(seen.puts).toHaveLength(1);
  });

  it('disables "Submit" while the request runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get(`${API}/users/:email`, async ({ params }) => {
        await held;
        return HttpResponse.json({ email: String(params.email), activated: true });
      }),
    );
    const { dialog, user } = await openModal('user@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled());
    release();
    expect(await within(dialog).findByText(SENT)).toBeInTheDocument();
  });

  it('with the identity provider unreachable: a clear message, and the account is not marked activated', async () => {
    const seen = accountApi({ 'invited@example.com': { activated: false } });
    const { dialog, user, auth } = await openModal('invited@example.com');
    auth.failNextReset = Object.assign(new Error('Firebase: Error (auth/network-request-failed).'), {
      code: 'auth/network-request-failed',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The password reset service could not be reached, so no email was sent. Please check your connection and try again.',
    );
    expect(seen.puts).toEqual([]);
    expect(within(dialog).queryByText(SENT)).not.toBeInTheDocument();

    // Once it is back, the same form retries.
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(SENT)).toBeInTheDocument();
    expect(seen.puts).toHaveLength(1);
  });

  it('asks to wait when the identity provider throttles, and for any other provider failure says no mail was sent', async () => {
    const seen = accountApi({ 'invited@example.com': { activated: false } });
    const { dialog, user, auth } = await openModal('invited@example.com');
    auth.failNextReset = Object.assign(new Error('Firebase: Error (auth/too-many-requests).'), {
      code: 'auth/too-many-requests',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Too many password reset requests. Please wait a few minutes and try again.',
    );
    auth.failNextReset = Object.assign(new Error('Firebase: Error (auth/internal-error).'), {
      code: 'auth/internal-error',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'The password reset email could not be sent. Please try again later.',
      ),
    );
    expect(seen.puts).toEqual([]);
  });

  it('still says the mail was sent when marking the account activated fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const seen = accountApi(
      { 'invited@example.com': { activated: false } },
      {
        put: HttpResponse.json({ message: 'Too many requests. Please wait 5 seconds and try again.' }, { status: 429 }),
      },
    );
    const { dialog, user } = await openModal('invited@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(SENT)).toBeInTheDocument();
    expect(seen.puts).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith('Marking the account activated failed', expect.anything());
  });
});
