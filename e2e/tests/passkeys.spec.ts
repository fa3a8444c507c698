import type { Page } from '@playwright/test';
import { identityToolkit } from '@portal/dev-stack';
import { confirmAdminPageIfAsked, DEMO, expect, signedInStatePath, test, type Portal } from '../fixtures.ts';
import { saveScreenshot, SCREENSHOTS_WANTED } from '../screenshots.ts';
import { E2E_STEP_UP_SECONDS } from '../global-setup.ts';
import { rowOf, searchUsers, usersTable } from '../users-list.ts';

const PASSWORD = 'new-admin-password-1';

/** A fresh address per run: the stack and its demo data are shared by every spec. */
const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** A user added by the demo admin, with a password, for a test that changes what the account may do. */
async function newUser(portal: Portal, label = 'user') {
  const email = uniqueEmail(label);
  expect((await portal.adminApi('POST', `/api/users/${email}`)).status).toBe(201);
  await identityToolkit(portal.emulatorUrl).setPassword(portal.projectId, email, PASSWORD);
  return { email, password: PASSWORD };
}

/**
 * An administrator who has never been to the admin page: a new user, promoted by the demo admin, with the
 * enrollment code the promotion answered with (the demo admin would hand it over in person).
 */
async function newAdmin(portal: Portal) {
  const admin = await newUser(portal, 'admin');
  const promoted = await portal.adminApi('PATCH', `/api/users/${admin.email}`, { admin: true });
  expect(promoted.status).toBe(200);
  const { enrollment } = promoted.body as { enrollment: { code: string } };
  return { ...admin, enrollmentCode: enrollment.code };
}

/** The first visit's card: the code the admin was given, then the passkey. */
async function setUpFirstPasskey(page: Page, enrollmentCode: string) {
  const setUp = page.getByRole('region', { name: 'Set up a passkey' });
  await setUp.getByLabel('Enrollment code').fill(enrollmentCode);
  await setUp.getByRole('button', { name: 'Set up a passkey' }).click();
}

async function signInToAdminPage(page: Page, portal: Portal, account: { email: string; password: string }) {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
  await portal.signIn(page, account);
  await expect(page).toHaveURL(/\/admin$/);
}

/** The ID token the page's own sign-in holds (Firebase keeps it in localStorage), to call the API as it. */
const pageToken = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => name.startsWith('firebase:authUser:'));
    const user = JSON.parse(localStorage.getItem(key ?? '') ?? 'null') as {
      stsTokenManager?: { accessToken?: string };
    } | null;
    return user?.stsTokenManager?.accessToken ?? '';
  });

async function listUsersAs(portal: Portal, idToken: string) {
  const response = await fetch(`${portal.url}/api/users?limit=1`, { headers: { authorization: `Bearer ${idToken}` } });
  return { status: response.status, code: ((await response.json()) as { code?: string }).code };
}

/** The screens the way a person sees them: 1366×768 and a 390×844 phone. */
async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS_WANTED) return;
  for (const [device, width, height] of [
    ['desktop', 1366, 768],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await saveScreenshot(page, `passkeys-${name}-${device}.png`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 768 });
}

test.describe('passkeys on the way to the admin page', () => {
  // One extra administrator with a passkey at a time: with two of them besides the demo admin, the demo
  // admin's promotions and resets would wait for a second administrator's approval instead of answering.
  test.describe.configure({ mode: 'default' });
  test.setTimeout(120_000);

  test('the first visit sets up a passkey, every visit after uses it; another admin can reset it', async ({
    page,
    portal,
    browser,
  }) => {
    const admin = await newAdmin(portal);
    try {
      const laptop = await portal.addAuthenticator(page);
      await signInToAdminPage(page, portal, admin);
      const setUp = page.getByRole('region', { name: 'Set up a passkey' });
      await expect(setUp).toContainText('as well as their password');
      await expect(usersTable(page)).toHaveCount(0);
      await portal.expectAccessible(page);
      await screenshot(page, 'first-visit');

      // The password alone opens nothing: the page's own session is refused by the server, and a wrong code
      // sets up no passkey.
      const token = await pageToken(page);
      expect(await listUsersAs(portal, token)).toEqual({ status: 403, code: 'step-up-required' });
      await setUpFirstPasskey(page, 'AAAA-BBBB-CCCC-DDDD');
      await expect(setUp.getByRole('alert')).toContainText('This enrollment code is not right');
      expect(await laptop.credentials()).toHaveLength(0);

      await setUpFirstPasskey(page, admin.enrollmentCode);
      await expect(usersTable(page)).toBeVisible();
      expect(await laptop.credentials()).toHaveLength(1);
      // The page's browser holds the step-up secret (an HttpOnly cookie for /api); the same token without it,
      // as anyone who copied it would send it, is still refused.
      expect(await listUsersAs(portal, token)).toEqual({ status: 403, code: 'step-up-required' });
      const cookies = await page.context().cookies();
      expect(cookies.find((cookie) => cookie.name === 'portal_step_up')).toMatchObject({
        httpOnly: true,
        sameSite: 'Strict',
        path: '/api',
      });
      expect(await page.evaluate(() => document.cookie)).not.toContain('portal_step_up');
      await screenshot(page, 'list');

      // The next day: signed in again, with the password; the passkey is asked for once more.
      await page.getByRole('button', { name: 'Sign Out' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await signInToAdminPage(page, portal, admin);
      const confirm = page.getByRole('region', { name: "Confirm it's you" });
      await expect(confirm).toContainText(`It stays open for ${E2E_STEP_UP_SECONDS} seconds at a time`);
      await portal.expectAccessible(page);
      await screenshot(page, 'every-day');
      expect(await listUsersAs(portal, await pageToken(page))).toEqual({ status: 403, code: 'step-up-required' });
      await confirm.getByRole('button', { name: 'Use passkey' }).click();
      await expect(usersTable(page)).toBeVisible();

      // The laptop is lost: another admin resets the passkeys from the user list, and is shown a new code.
      let newCode = '';
      // A context of its own (axe needs one), as another admin's browser is.
      // Signed in already, with the admin's shared state: its passkey confirmation is answered by the page's.
      const helperContext = await browser.newContext({ baseURL: portal.url, storageState: signedInStatePath('admin') });
      const helper = await helperContext.newPage();
      try {
        await portal.addAuthenticator(helper, DEMO.admin);
        await portal.answerPasskeyPrompts(helper);
        await helper.goto('/admin');
        await confirmAdminPageIfAsked(helper);
        await searchUsers(helper, admin.email, 1);
        await rowOf(helper, admin.email)
          .getByRole('button', { name: `More actions for ${admin.email}` })
          .click();
        await rowOf(helper, admin.email).getByRole('button', { name: 'Reset passkeys' }).click();
        const reset = helper.getByRole('dialog', { name: 'Reset passkeys?' });
        await expect(reset).toContainText('sets up a new one with the enrollment code you are shown next');
        await portal.expectAccessible(helper);
        await reset.getByRole('button', { name: 'Reset passkeys' }).click();
        const notice = helper
          .getByRole('status')
          .filter({ hasText: `The passkeys of ${admin.email} were reset and they were signed out everywhere.` });
        await expect(notice).toBeVisible();
        const shown = /first passkey: ([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3})/.exec((await notice.textContent()) ?? '');
        expect(shown).not.toBeNull();
        newCode = shown?.[1] ?? '';
      } finally {
        await helperContext.close();
      }
      // The reset signed the admin out everywhere: whoever held their session is out too.
      await page.reload();
      await expect(page).toHaveURL(/\/login$/);
      await portal.signIn(page, admin);
      await expect(page).toHaveURL(/\/admin$/);
      await setUpFirstPasskey(page, newCode);
      await expect(usersTable(page)).toBeVisible();
    } finally {
      await portal.adminApi('DELETE', `/api/users/${encodeURIComponent(admin.email)}`);
    }
  });

  test('once the confirmation has run out, the next admin call asks for the passkey, then goes through', async ({
    page,
    portal,
  }) => {
    // It waits a whole confirmation out, on top of what a test may take.
    test.setTimeout(test.info().timeout + (E2E_STEP_UP_SECONDS + 1) * 1000);
    // An admin of its own, whose page's confirmation nothing else renews.
    const admin = await newAdmin(portal);
    try {
      await portal.addAuthenticator(page);
      await signInToAdminPage(page, portal, admin);
      await setUpFirstPasskey(page, admin.enrollmentCode);
      await expect(usersTable(page)).toBeVisible();

      await page.waitForTimeout((E2E_STEP_UP_SECONDS + 1) * 1000);
      const refusal = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/users' && response.status() === 403,
      );
      await page.getByLabel('Search by email').fill(DEMO.user.email);
      expect(((await (await refusal).json()) as { code: string }).code).toBe('step-up-required');
      const prompt = page.getByRole('dialog', { name: "Confirm it's you" });
      await expect(prompt).toContainText(
        `Your passkey confirmation has run out (it lasts ${E2E_STEP_UP_SECONDS} seconds). Please confirm it is you again.`,
      );
      await portal.expectAccessible(page);
      await screenshot(page, 'prompt');
      const retried = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/users' && response.status() === 200,
      );
      await prompt.getByRole('button', { name: 'Use passkey' }).click();
      await expect(prompt).toBeHidden();
      await retried;
      await expect(rowOf(page, DEMO.user.email)).toBeVisible();
      await expect(usersTable(page).getByRole('row')).toHaveCount(2);
    } finally {
      await portal.adminApi('DELETE', `/api/users/${encodeURIComponent(admin.email)}`);
    }
  });
});

test.describe('ending sessions', () => {
  test.setTimeout(120_000);
  // The admin's page starts with the admin's shared state; the user whose sessions end is the test's own.
  test.use({ signedInAs: 'admin' });

  test("an admin ends a user's sessions; the user then signs out everywhere from the header", async ({
    page,
    portal,
    browser,
  }) => {
    // A user of its own: ending the demo user's sessions would sign out the tests of other workers.
    const user = await newUser(portal);
    const invoiceUrl = '/invoice?parcelCode=DEMO000001';
    const openInvoiceAsUser = async (userPage: Page) => {
      await userPage.goto(invoiceUrl);
      await portal.signIn(userPage, user);
      await expect(userPage).toHaveURL(/\/invoice\?parcelCode=DEMO000001$/);
      await expect(userPage.getByText(user.email)).toBeVisible();
    };
    // Two devices of the user's: a browser context each (axe needs one), signed out. A context a test makes
    // takes the test's options, the admin's shared state among them, unless told otherwise.
    const signedOut = { cookies: [], origins: [] };
    const laptopContext = await browser.newContext({ baseURL: portal.url, storageState: signedOut });
    const phoneContext = await browser.newContext({ baseURL: portal.url, storageState: signedOut });
    const laptop = await laptopContext.newPage();
    const phone = await phoneContext.newPage();
    try {
      await openInvoiceAsUser(laptop);
      // Firebase ends sessions "signed in before second S": let that second go by.
      await page.waitForTimeout(1100);

      await portal.addAuthenticator(page, DEMO.admin);
      await portal.answerPasskeyPrompts(page);
      await page.goto('/admin');
      await confirmAdminPageIfAsked(page);
      await searchUsers(page, user.email, 1);
      await rowOf(page, user.email)
        .getByRole('button', { name: `More actions for ${user.email}` })
        .click();
      await rowOf(page, user.email).getByRole('button', { name: 'End sessions' }).click();
      const confirm = page.getByRole('dialog', { name: 'End sessions?' });
      await expect(confirm).toContainText('is signed out on every device and browser');
      await portal.expectAccessible(page);
      await screenshot(page, 'end-sessions');
      await confirm.getByRole('button', { name: 'End sessions' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: `${user.email} was signed out everywhere.` }),
      ).toBeVisible();

      // The user's next call is refused, and the app signs them out with the reason.
      await laptop.reload();
      await expect(laptop).toHaveURL(/\/login$/);
      await expect(laptop.getByRole('status')).toHaveText('Your session has ended. Please sign in again.');
      await portal.expectAccessible(laptop);

      // Signed in again on two devices, the user signs out everywhere from the laptop's header.
      await portal.signIn(laptop, user);
      await expect(laptop).toHaveURL(/\/invoice\?parcelCode=DEMO000001$/);
      await openInvoiceAsUser(phone);
      await phone.waitForTimeout(1100);
      await laptop.getByRole('button', { name: 'More account options' }).click();
      await laptop.getByRole('button', { name: 'Sign out everywhere' }).click();
      const everywhere = laptop.getByRole('dialog', { name: 'Sign out everywhere?' });
      await expect(everywhere).toContainText('this one included');
      await portal.expectAccessible(laptop);
      await everywhere.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(laptop).toHaveURL(/\/login$/);
      await phone.reload();
      await expect(phone).toHaveURL(/\/login$/);
      await expect(phone.getByRole('status')).toHaveText('Your session has ended. Please sign in again.');
    } finally {
      await laptopContext.close();
      await phoneContext.close();
      await portal.adminApi('DELETE', `/api/users/${encodeURIComponent(user.email)}`);
    }
  });
});
