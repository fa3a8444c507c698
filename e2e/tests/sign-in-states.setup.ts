import type { Page } from '@playwright/test';
import { confirmAdminPageIfAsked, DEMO, expect, signedInStatePath, test, type SignedInRole } from '../fixtures.ts';

/**
 * Cookies (the passkey confirmation's among them) and local storage, where Firebase keeps the sign-in here;
 * IndexedDB too, so a change of Firebase's persistence would not leave the states signed out.
 */
const saveState = (page: Page, role: SignedInRole) =>
  page.context().storageState({ path: signedInStatePath(role), indexedDB: true });

/**
 * Each role's signed-in state, made once a run through the login screen as a person signs in, and saved
 * (cookies and local storage, where Firebase keeps the sign-in) for the tests that start signed in
 * (decision 0125). The way in itself is tested by sign-in.spec.ts, passkeys.spec.ts, the first visits of
 * invoices-search.spec.ts and the signed-out links of invoice.spec.ts; here it only has to get there.
 */
test.describe('signed-in states', () => {
  // A sign-in, a passkey ceremony and the first page of the role, on a machine busy with other work.
  test.describe.configure({ timeout: 60_000 });

  test('the reader, on an invoice', async ({ page, portal }) => {
    await page.goto('/invoice?parcelCode=DEMO000001');
    await expect(page).toHaveURL(/\/login$/);
    await portal.signIn(page, DEMO.user);
    await expect(page.getByRole('heading', { level: 1, name: 'Invoice DEMO000001' })).toBeVisible();
    await expect(page.getByText(DEMO.user.email)).toBeVisible();
    await saveState(page, 'reader');
  });

  test('the admin, confirmed with a passkey on the admin page', async ({ page, portal }) => {
    await portal.addAuthenticator(page, DEMO.admin);
    await portal.answerPasskeyPrompts(page);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    await portal.signIn(page, DEMO.admin);
    await expect(page).toHaveURL(/\/admin$/);
    await confirmAdminPageIfAsked(page);
    await saveState(page, 'admin');
  });

  test('the finance user, confirmed with a passkey on the Invoices page', async ({ page, portal }) => {
    await portal.addAuthenticator(page, DEMO.finance);
    await portal.answerPasskeyPrompts(page);
    await page.goto('/finance');
    await expect(page).toHaveURL(/\/login$/);
    await portal.signIn(page, DEMO.finance);
    await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Search' })).toBeVisible();
    await saveState(page, 'finance');
  });
});
