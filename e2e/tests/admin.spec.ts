import type { Page } from '@playwright/test';
import { identityToolkit } from '@portal/dev-stack';
import { DEMO, expect, test, type Portal } from '../fixtures.ts';

const NO_PERMISSION = 'You do not have permissions to view this page. Please contact the website administrator.';

/** A fresh address per run: the stack and its demo data are shared by every spec. */
const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * Signs in on the way to /admin. An admin then confirms with their passkey (this page's authenticator
 * holds one), and any later prompt, once the confirmation has run out mid-test, is answered too.
 */
async function openAdminAs(page: Page, portal: Portal, account: { email: string; password: string }) {
  const admin = account.email === DEMO.admin.email;
  if (admin) {
    await portal.addAuthenticator(page, account);
    await portal.answerPasskeyPrompts(page);
  }
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
  await portal.signIn(page, account);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  if (admin)
    await page.getByRole('region', { name: "Confirm it's you" }).getByRole('button', { name: 'Use passkey' }).click();
}

const usersTable = (page: Page) => page.getByRole('table', { name: 'Allowed users' });
const rowOf = (page: Page, email: string) =>
  usersTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: email, exact: true }) });

/** Removes addresses a test added, through the API, so a failed test leaves the shared list as it was. */
async function removeUsers(portal: Portal, emails: string[]) {
  for (const email of emails) await portal.adminApi('DELETE', `/api/users/${encodeURIComponent(email)}`);
}

/** Puts addresses on the list through the API, faster than the screen for a list long enough to page. */
async function addUsers(portal: Portal, emails: string[]) {
  for (const email of emails) {
    const response = await portal.adminApi('POST', `/api/users/${encodeURIComponent(email)}`);
    expect(response.status, email).toBe(201);
  }
}

async function screenshot(page: Page, name: string) {
  for (const [device, width] of [
    ['desktop', 1280],
    ['phone', 375],
  ] as const) {
    await page.setViewportSize({ width, height: device === 'phone' ? 812 : 800 });
    await page.screenshot({ path: test.info().outputPath(`admin-${name}-${device}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('the admin users screen', () => {
  test('an address with a sign-in account the portal did not make is refused, then taken over only once confirmed', async ({
    page,
    portal,
  }) => {
    const email = uniqueEmail('foreign');
    // Someone signs up with the address before the invite (the web API key is public).
    const squatter = await identityToolkit(portal.emulatorUrl).signUp(email, 'squatter-password');
    try {
      await openAdminAs(page, portal, DEMO.admin);
      await page.getByRole('button', { name: 'Add User' }).click();
      const addModal = page.getByRole('dialog', { name: 'Add User' });
      await addModal.getByLabel('Email address').fill(email);
      await addModal.getByRole('button', { name: 'Submit' }).click();
      const error = page.getByRole('dialog', { name: 'Error' });
      await expect(error).toContainText('already has a sign-in account that this portal did not make');
      await error.getByRole('button', { name: 'Continue' }).click();
      await expect(error).toBeHidden();

      const takeOver = addModal.getByRole('checkbox', { name: /Take over the existing account/ });
      await expect(takeOver).not.toBeChecked();
      await portal.expectAccessible(page);
      await screenshot(page, 'add-take-over-offered');
      // Submitting again without ticking it is refused again: nothing is deleted by accident.
      await addModal.getByRole('button', { name: 'Submit' }).click();
      await expect(error).toBeVisible();
      await error.getByRole('button', { name: 'Continue' }).click();
      await takeOver.check();
      await addModal.getByRole('button', { name: 'Submit' }).click();
      await expect(addModal).toBeHidden();
      await page.getByLabel('Search by email').fill(email);
      await expect(rowOf(page, email)).toContainText('Invited');
      // The account someone else made is gone: its password no longer signs in.
      await expect(identityToolkit(portal.emulatorUrl).signIn(email, 'squatter-password')).rejects.toThrow();
      expect(squatter.uid).toBeTruthy();

      await page.getByRole('tab', { name: 'Audit log' }).click();
      const audit = page.getByRole('table', { name: 'Audit entries' });
      await expect(
        audit.getByRole('row').filter({ hasText: email }).filter({ hasText: 'Take over sign-in account of' }),
      ).toContainText(`deleting the sign-in account uid ${squatter.uid}`);
    } finally {
      await removeUsers(portal, [email]);
    }
  });

  test('an admin adds a user who appears in the table, then deletes them after confirming', async ({
    page,
    portal,
  }) => {
    const email = uniqueEmail('add');
    try {
      await openAdminAs(page, portal, DEMO.admin);
      await expect(rowOf(page, DEMO.admin.email)).toContainText('Admin');
      await expect(rowOf(page, DEMO.invited.email)).toContainText('Invited');
      await portal.expectAccessible(page);
      await screenshot(page, 'list');

      await page.getByRole('button', { name: 'Add User' }).click();
      const addModal = page.getByRole('dialog', { name: 'Add User' });
      const field = addModal.getByLabel('Email address');
      await field.fill('not-an-address');
      await field.blur();
      await expect(addModal.getByText('Invalid email address')).toBeVisible();
      await portal.expectAccessible(page);
      await screenshot(page, 'add-invalid');

      await field.fill(email);
      const register = page.waitForRequest(
        (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/users',
      );
      await addModal.getByRole('button', { name: 'Submit' }).click();
      // The spec's register call goes out without the bearer token.
      expect((await register).headers().authorization).toBeUndefined();
      await expect(addModal).toBeHidden();

      // The demo list is short, but other specs may add to it: search, as an admin would.
      await page.getByLabel('Search by email').fill(email);
      await expect(usersTable(page).getByRole('row')).toHaveCount(2);
      await expect(rowOf(page, email)).toContainText('Invited');

      await rowOf(page, email)
        .getByRole('button', { name: `Delete ${email}` })
        .click();
      const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
      await expect(confirm).toContainText(`Are you sure you want to delete user ${email}`);
      await portal.expectAccessible(page);
      await screenshot(page, 'confirm-delete');
      await confirm.getByRole('button', { name: 'Yes' }).click();
      await expect(confirm).toBeHidden();
      await expect(rowOf(page, email)).toHaveCount(0);
      await expect(page.getByText(`No users match "${email}".`)).toBeVisible();

      await page.getByRole('tab', { name: 'Audit log' }).click();
      const audit = page.getByRole('table', { name: 'Audit entries' });
      await expect(audit.getByRole('row').filter({ hasText: email }).filter({ hasText: 'Delete user' })).toHaveCount(1);
      await expect(audit.getByRole('row').filter({ hasText: email }).filter({ hasText: 'Add user' })).toHaveCount(1);
      await portal.expectAccessible(page);
      await screenshot(page, 'audit');
    } finally {
      await removeUsers(portal, [email]);
    }
  });

  test('an admin adds several users at once and sees a result per address', async ({ page, portal }) => {
    const [first, second] = [uniqueEmail('bulk1'), uniqueEmail('bulk2')];
    try {
      await openAdminAs(page, portal, DEMO.admin);
      await page.getByRole('button', { name: 'Bulk add' }).click();
      const modal = page.getByRole('dialog', { name: 'Bulk add' });
      await modal.getByLabel('Email addresses').fill(`${first}, not-an-address\n${DEMO.user.email}; ${second}`);
      await expect(modal.getByText('4 addresses found.')).toBeVisible();
      await modal.getByRole('button', { name: 'Add users' }).click();
      await expect(modal.getByText('2 added, 1 already on the list, 1 invalid, 0 failed')).toBeVisible();
      const results = modal.getByRole('table', { name: 'Bulk add results' });
      await expect(results.getByRole('row').filter({ hasText: first })).toContainText('Added');
      await expect(results.getByRole('row').filter({ hasText: 'not-an-address' })).toContainText('Invalid');
      await expect(results.getByRole('row').filter({ hasText: DEMO.user.email })).toContainText('Already on the list');
      await portal.expectAccessible(page);
      await screenshot(page, 'bulk-results');
      await modal.getByRole('button', { name: 'Done' }).click();
      await page.getByLabel('Search by email').fill('e2e-bulk');
      await expect(rowOf(page, first)).toBeVisible();
      await expect(rowOf(page, second)).toBeVisible();
    } finally {
      await removeUsers(portal, [first, second]);
    }
  });

  test('the next page starts at the top; a selection is deleted after one confirmation', async ({ page, portal }) => {
    const prefix = uniqueEmail('many').replace('@example.com', '');
    const emails = Array.from({ length: 50 }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}@example.com`);
    try {
      await addUsers(portal, emails);
      await openAdminAs(page, portal, DEMO.admin);
      await page.getByLabel('Per page').selectOption('25');
      await page.getByLabel('Search by email').fill(prefix);
      await expect(page.getByText('1–25 of 50 users')).toBeVisible();

      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      await page.getByRole('navigation', { name: 'users pages' }).getByRole('button', { name: 'Next' }).click();
      // A full page follows: were the window left where it was, it would stay far down.
      await expect(page.getByText('26–50 of 50 users')).toBeVisible();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(10);

      const [first, second] = [emails[25]!, emails[27]!];
      await page.getByRole('checkbox', { name: `Select ${first}` }).check();
      await page.getByRole('checkbox', { name: `Select ${second}` }).check();
      await expect(page.getByText('2 selected')).toBeVisible();
      await portal.expectAccessible(page);
      await screenshot(page, 'selection');
      await page.getByRole('button', { name: 'Delete selected' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete 2 users?' });
      await portal.expectAccessible(page);
      await confirm.getByRole('button', { name: 'Delete 2 users' }).click();
      await expect(page.getByRole('status').filter({ hasText: '2 users deleted.' })).toBeVisible();
      await expect(rowOf(page, first)).toHaveCount(0);
      await expect(rowOf(page, second)).toHaveCount(0);
      await expect(page.getByText('26–48 of 48 users')).toBeVisible();
    } finally {
      await removeUsers(portal, emails);
    }
  });

  test('an ordinary user on /admin sees the permission message and no table', async ({ page, portal }) => {
    await openAdminAs(page, portal, DEMO.user);
    const dialog = page.getByRole('dialog', { name: 'Error' });
    await expect(dialog.getByText(NO_PERMISSION, { exact: true })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await portal.expectAccessible(page);
    await screenshot(page, 'no-permission');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
  });
});
