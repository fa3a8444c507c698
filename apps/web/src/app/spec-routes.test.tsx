import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FORMER_FINANCE_PATH, paths } from '@/lib/paths';
import { createFakeAuthClient } from '@/testing/fake-auth-client';
import { accountLookup } from '@/testing/handlers';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';

/**
 * SPEC.md's route table, driven as it is written: each listed path, signed in and signed out, and "any other
 * path" (other cases, a trailing slash, the finance page's former address). The routes the product adds are
 * asserted as docs/product/deliberate-readings.md states them, so a route added unstated fails here.
 */

const REPO_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
// Read as one line: a statement may wrap anywhere in the file.
const readings = readFileSync(path.join(REPO_ROOT, 'docs/product/deliberate-readings.md'), 'utf8').replace(/\s+/g, ' ');

const SPEC_ROUTES = ['/', '/invoice', '/admin', '/login'];
/**
 * Each route the product adds beside the table (and the post-login line for one of them), with the words
 * deliberate-readings.md states it in.
 */
const DOCUMENTED_ADDED_ROUTES = {
  '/finance': 'The finance page at `/finance`',
  postLogin: 'a previous path of `/finance` goes back to it with its query string',
  [FORMER_FINANCE_PATH]: "`/invoices`, the finance page's former address",
};

const USER = 'user@example.com';
const FINANCE = 'money@example.com';

function signedIn(email: string, roles: { admin?: boolean; finance?: boolean } = {}) {
  server.use(accountLookup({ [email]: roles }));
  return { auth: createFakeAuthClient({ signedInAs: email }) };
}

async function expectNotFound() {
  expect(await screen.findByRole('heading', { name: 'Error' })).toBeInTheDocument();
  expect(screen.getByText('Page Not Found')).toBeInTheDocument();
}

async function expectInvoiceScreen() {
  // Without a parcel code the invoice screen says so in its "Error" modal and asks for nothing.
  const modal = await screen.findByRole('dialog', { name: 'Error' });
  expect(modal).toHaveTextContent('Please double check your parcel code and try the link again');
}

describe("SPEC.md's route table", () => {
  it('names no route beyond the table but those deliberate-readings.md states', () => {
    const routes = [...Object.values(paths), FORMER_FINANCE_PATH];
    expect(routes.filter((route) => !SPEC_ROUTES.includes(route)).sort()).toEqual(
      Object.keys(DOCUMENTED_ADDED_ROUTES)
        .filter((key) => key.startsWith('/'))
        .sort(),
    );
    for (const statement of Object.values(DOCUMENTED_ADDED_ROUTES)) expect(readings).toContain(statement);
  });

  it.each(['/', '/invoice'])('%s shows a signed-in user the invoice screen', async (route) => {
    renderApp(route, signedIn(USER));
    await expectInvoiceScreen();
  });

  it('/admin shows a signed-in user the admin users screen (the server decides the table)', async () => {
    renderApp('/admin', signedIn(USER));
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent(
      'You do not have permissions to view this page. Please contact the website administrator.',
    );
  });

  it.each(['/', '/invoice?parcelCode=P1', '/admin'])(
    '%s sends a signed-out visitor to /login, replacing the entry and carrying the location',
    async (route) => {
      const { router } = renderApp(route);
      expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/login');
      expect(router.state.historyAction).toBe('REPLACE');
      const [pathname, search = ''] = route.split('?');
      expect(router.state.location.state).toEqual({ from: { pathname, search: search && `?${search}` } });
    },
  );

  it('/login shows everyone the login screen', async () => {
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
  });

  it.each([
    '/no/such/page',
    '/INVOICE',
    '/Admin',
    '/LOGIN',
    '/invoice/',
    '/admin/',
    '/login/',
    '/Finance',
    '/finance/',
  ])('any other path, such as %s, is Page Not Found, signed out and signed in', async (route) => {
    const signedOut = renderApp(route);
    await expectNotFound();
    expect(signedOut.router.state.location.pathname).toBe(route);
    signedOut.unmount();
    const view = renderApp(route, signedIn(USER));
    await expectNotFound();
    expect(view.router.state.location.pathname).toBe(route);
  });

  it('keeps the hash route of the reset link: / with #/invoice is the invoice screen', async () => {
    const { hashRouteTarget } = await import('./hash-route');
    expect(hashRouteTarget({ pathname: '/', hash: '#/invoice?parcelCode=P1' })).toBe('/invoice?parcelCode=P1');
  });
});

describe('the routes the product adds, as deliberate-readings.md states them', () => {
  it('/finance is the Invoices page for a finance holder, linked in the header before "Admin Page"', async () => {
    renderApp('/finance', signedIn(FINANCE, { finance: true, admin: true }));
    expect(await screen.findByRole('heading', { name: 'Invoices' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = await within(nav).findAllByRole('link', { name: /^(Invoices|Admin Page)$/ });
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/finance', '/admin']);
  });

  it('/finance sends a signed-out visitor to /login, and after sign-in back to /finance with its query', async () => {
    const auth = createFakeAuthClient({ accounts: { [FINANCE]: { uid: 'uid-money', password: 'pass' } } });
    server.use(accountLookup({ [FINANCE]: { finance: true } }));
    const { router, user } = renderApp('/finance?seller=nord', { auth });
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: { pathname: '/finance', search: '?seller=nord' } });
    await user.type(screen.getByLabelText('Email address'), FINANCE);
    await user.type(screen.getByLabelText('Password'), 'pass');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/finance'));
    expect(router.state.location.search).toBe('?seller=nord');
  });

  it('/invoices leads a finance holder to /finance with its search', async () => {
    const { router } = renderApp('/invoices?seller=nord', signedIn(FINANCE, { finance: true }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/finance'));
    expect(router.state.location.search).toBe('?seller=nord');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('/invoices is Page Not Found for anyone else, signed in or not, so no sign-in is sent there', async () => {
    const signedOut = renderApp('/invoices');
    await expectNotFound();
    expect(signedOut.router.state.location.pathname).toBe('/invoices');
    signedOut.unmount();
    renderApp('/invoices', signedIn(USER));
    await expectNotFound();
  });
});
