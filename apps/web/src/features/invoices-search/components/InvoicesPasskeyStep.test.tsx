import type { StepUpStatus } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup, emptySearchSums } from '@/testing/handlers';
import { API, server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

const MONEY = 'money@example.com';
const CODE = 'ABCD-EFGH-JKMN-PQRS';

/** The browser's half of WebAuthn, which jsdom lacks: a device that makes and uses a passkey when asked. */
const browser = vi.hoisted(() => ({
  registrations: 0,
  assertions: 0,
}));
vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: () => true,
  startRegistration: async () => {
    browser.registrations += 1;
    return {
      id: 'credential-1',
      rawId: 'credential-1',
      type: 'public-key',
      response: { clientDataJSON: 'e30', attestationObject: 'o2M' },
      clientExtensionResults: {},
    };
  },
  startAuthentication: async () => {
    browser.assertions += 1;
    return {
      id: 'credential-1',
      rawId: 'credential-1',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
      clientExtensionResults: {},
    };
  },
}));

const status = (overrides: Partial<StepUpStatus>): StepUpStatus => ({
  passkeys: 0,
  steppedUpUntil: null,
  maxAgeSeconds: 600,
  recentSignIn: true,
  ...overrides,
});

/**
 * The server's half: GET /me/step-up answers `state.status`; the ceremonies confirm this browser; a search
 * is refused with step-up-required until then, as the API does for a finance call without a confirmation.
 */
function fakeFinanceApi(initial: StepUpStatus) {
  const state = { status: initial, searches: 0, refuseNextSearch: false, codesSent: [] as unknown[] };
  const confirmed = () => {
    state.status = {
      ...state.status,
      passkeys: Math.max(1, state.status.passkeys),
      steppedUpUntil: '2099-01-01T00:00:00Z',
    };
    return HttpResponse.json({ steppedUpUntil: state.status.steppedUpUntil });
  };
  const handlers = [
    http.get(`${API}/me/step-up`, () => HttpResponse.json(state.status)),
    http.post(`${API}/me/passkeys/options`, async ({ request }) => {
      const body = (await request.json()) as { enrollmentCode?: string };
      state.codesSent.push(body.enrollmentCode);
      if (body.enrollmentCode !== CODE)
        return HttpResponse.json(
          {
            message:
              'This enrollment code is not right, was already used or has run out. Ask another administrator for a new one.',
            code: 'invalid',
          },
          { status: 400 },
        );
      return HttpResponse.json({
        challenge: 'challenge',
        rp: { id: 'portal.test', name: 'Portal' },
        user: { id: 'user', name: MONEY, displayName: MONEY },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      });
    }),
    http.post(`${API}/me/passkeys`, () => confirmed()),
    http.post(`${API}/me/step-up/options`, () => HttpResponse.json({ challenge: 'challenge', rpId: 'portal.test' })),
    http.post(`${API}/me/step-up`, () => confirmed()),
    emptySearchSums,
    http.get(`${API}/invoices`, () => {
      state.searches += 1;
      if (state.status.steppedUpUntil === null || state.refuseNextSearch) {
        state.refuseNextSearch = false;
        state.status = { ...state.status, steppedUpUntil: null };
        return HttpResponse.json(
          {
            message: 'Your passkey confirmation has run out (it lasts 10 minutes). Please confirm it is you again.',
            code: 'step-up-required',
          },
          { status: 403 },
        );
      }
      return HttpResponse.json({ items: [], total: 0, totalIsAtLeast: false });
    }),
  ];
  return { handlers, state };
}

function openInvoicesPage(initial: StepUpStatus) {
  const fake = fakeFinanceApi(initial);
  server.use(accountLookup({ [MONEY]: { finance: true } }), ...fake.handlers);
  const rendered = renderApp('/invoices', {
    auth: createFakeAuthClient({ signedInAs: MONEY, accounts: { [MONEY]: { uid: 'uid-money', password: 'secret' } } }),
  });
  return { ...rendered, fake };
}

describe('the passkey step of the Invoices page', () => {
  beforeEach(() => {
    browser.registrations = 0;
    browser.assertions = 0;
  });

  it('first visit: explains why, asks for the code from the grant, sets up the passkey, then searches', async () => {
    const { user, fake } = openInvoicesPage(status({ passkeys: 0 }));
    const card = await screen.findByRole('region', { name: 'Set up a passkey' });
    expect(card).toHaveTextContent('This page opens every invoice');
    expect(within(card).getByLabelText('Enrollment code')).toHaveAccessibleDescription(
      /administrator who gave you the finance role/,
    );
    // Nothing of the invoices until the passkey is there: not a single search was sent.
    expect(screen.queryByRole('button', { name: 'Search' })).not.toBeInTheDocument();
    expect(fake.state.searches).toBe(0);

    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('Please enter your enrollment code.');
    await user.type(within(card).getByLabelText('Enrollment code'), 'WRON-GCOD-E000-0000');
    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('This enrollment code is not right');
    expect(browser.registrations).toBe(0);

    await user.clear(within(card).getByLabelText('Enrollment code'));
    await user.type(within(card).getByLabelText('Enrollment code'), CODE);
    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    expect(await screen.findByRole('button', { name: 'Search' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Set up a passkey' })).not.toBeInTheDocument();
    expect(browser.registrations).toBe(1);
    await waitFor(() => expect(fake.state.searches).toBeGreaterThan(0));
  });

  it('asks for the password again first when the sign-in is not recent', async () => {
    const { user } = openInvoicesPage(status({ passkeys: 0, recentSignIn: false }));
    const card = await screen.findByRole('region', { name: 'Set up a passkey' });
    await user.type(within(card).getByLabelText('Enrollment code'), CODE);
    await user.type(within(card).getByLabelText('Password'), 'wrong');
    await user.click(within(card).getByRole('button', { name: 'Set up a passkey' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('That password is not right. Please try again.');
    expect(browser.registrations).toBe(0);
  });

  it('every visit after: one tap on the passkey opens the invoices, naming how long it holds', async () => {
    const { user } = openInvoicesPage(status({ passkeys: 1, maxAgeSeconds: 900, recentSignIn: false }));
    const card = await screen.findByRole('region', { name: "Confirm it's you" });
    expect(card).toHaveTextContent('Use your passkey to open the invoices. They stay open for 15 minutes at a time');
    expect(card).toHaveTextContent('An administrator can reset it');
    await user.click(within(card).getByRole('button', { name: 'Use passkey' }));
    expect(await screen.findByRole('button', { name: 'Search' })).toBeInTheDocument();
    expect(browser.assertions).toBe(1);
  });

  it('a search refused because the confirmation ran out asks for the passkey over the page, then goes out again', async () => {
    const { user, fake } = openInvoicesPage(status({ passkeys: 1, steppedUpUntil: '2099-01-01T00:00:00Z' }));
    await screen.findByRole('button', { name: 'Search' });
    await waitFor(() => expect(fake.state.searches).toBe(1));
    fake.state.refuseNextSearch = true;
    await user.type(screen.getByLabelText(/^Seller/), 'Nordfracht');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const prompt = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(prompt).toHaveTextContent('Your passkey confirmation has run out');
    // The page stays as it was under the prompt: the form keeps what was typed.
    expect(screen.getByLabelText(/^Seller/)).toHaveValue('Nordfracht');
    await user.click(within(prompt).getByRole('button', { name: 'Use passkey' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "Confirm it's you" })).not.toBeInTheDocument());
    await waitFor(() => expect(fake.state.searches).toBe(3));
    expect(browser.assertions).toBe(1);
  });
});
