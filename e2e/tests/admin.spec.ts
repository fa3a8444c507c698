import { writeFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { identityToolkit } from '@portal/dev-stack';
import { confirmAdminPageIfAsked, DEMO, expect, test, type Portal } from '../fixtures.ts';
import { saveScreenshot, SCREENSHOTS_WANTED } from '../screenshots.ts';
import { rowOf, searchUsers, usersPager, usersTable } from '../users-list.ts';

const NO_PERMISSION = 'You do not have permissions to view this page. Please contact the website administrator.';

/** A tag unique to this run: the stack and its demo data are shared by every spec. */
const runTag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const uniqueEmail = (label: string) => `e2e-${label}-${runTag()}@example.com`;

/** Addresses as staff have them: long local parts with dots and hyphens, subdomains, a country domain. */
const NAMES = [
  'margaret.featherstonehaugh',
  'jan-willem.van-der-berg',
  'anna-lena.schmidt-wuestenhagen',
  'oluwaseun.adebayo-okafor',
  'siobhan.o-sullivan',
  'christopher.montgomery-smythe',
  'li.wei',
  'aleksandra.wisniewska-kowalczyk',
];
const DOMAINS = ['logistics.parcelgroup.co.uk', 'depot-rotterdam.example.com', 'finance.example.org'];
const realisticEmails = (tag: string, count: number) =>
  Array.from(
    { length: count },
    (_, i) => `${NAMES[i % NAMES.length]}.${tag}${String(i).padStart(2, '0')}@${DOMAINS[i % DOMAINS.length]}`,
  );

/**
 * Opens the list `query` names as the demo admin, whose shared signed-in state the describe uses. The
 * confirmation in that state lasts half a minute, so the page's authenticator holds a passkey of the admin's,
 * and the card (or any later prompt, once the confirmation has run out mid-test) is answered with it.
 */
async function openAdminPage(page: Page, portal: Portal, query = '') {
  await portal.addAuthenticator(page, DEMO.admin);
  await portal.answerPasskeyPrompts(page);
  await page.goto(`/admin${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await confirmAdminPageIfAsked(page);
}

/**
 * The Audit log tab narrowed to one address: the other worker's tests write entries too (a bulk add writes
 * dozens), so the first page of the whole log may already hold none of this test's.
 */
async function auditRowsOf(page: Page, email: string) {
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const filter = page.getByRole('form', { name: 'Filter the audit log' });
  await filter.getByLabel('User e-mail').fill(email);
  await filter.getByRole('button', { name: 'Filter' }).click();
  return page.getByRole('table', { name: 'Audit entries' }).getByRole('row').filter({ hasText: email });
}

/** A bulk call as the demo admin, confirmed with their passkey. */
async function adminCall(portal: Portal, path: string, body: unknown) {
  const response = await portal.adminApi('POST', `/api/users/${path}`, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { results: { input: string; outcome: string }[] };
}

/** Puts addresses on the list through the bulk call, faster than the screen. */
async function addUsers(portal: Portal, emails: string[]) {
  const { results } = await adminCall(portal, 'bulk-add', { emails });
  expect(results.filter((result) => result.outcome !== 'added')).toEqual([]);
}

/** Removes addresses a test added, so a failed test leaves the shared list as it was. */
async function removeUsers(portal: Portal, emails: string[]) {
  for (let i = 0; i < emails.length; i += 1000)
    await adminCall(portal, 'bulk-delete', { emails: emails.slice(i, i + 1000) });
}

/** The laptop of the review: a 1366×768 window; the phone project keeps its 390×844. */
test.beforeEach(async ({ page, isMobile }) => {
  if (!isMobile) await page.setViewportSize({ width: 1366, height: 768 });
});

/** What the window shows without scrolling, and the whole page, named after the project (desktop or phone). */
async function screenshot(page: Page, name: string) {
  if (!SCREENSHOTS_WANTED) return;
  const device = test.info().project.name;
  // Settled but for spinners, which turn for as long as their call is held.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  await saveScreenshot(page, `admin-${name}-${device}.png`);
  await saveScreenshot(page, `admin-${name}-${device}-full.png`, { fullPage: true });
}

/** Figures for the closing note: kept beside the screenshots and printed. */
async function report(name: string, figures: object) {
  const line = `${test.info().project.name} ${name}: ${JSON.stringify(figures)}`;
  await writeFile(test.info().outputPath(`${name}.json`), JSON.stringify(figures, null, 2));
  process.stdout.write(`${line}\n`);
}

const box = async (locator: Locator) => {
  const measured = await locator.boundingBox();
  if (!measured) throw new Error('not on screen');
  return { width: Math.round(measured.width), height: Math.round(measured.height) };
};

// The phone runs what it lays out or reaches differently (cards with their 44 px targets, the row menu, its
// own page size, the header, the audit log's cards, one's own Delete explained in the card); what the server
// decides, or a modal a row opens, is the same at any width and runs on the laptop only (@desktop).
test.describe('the admin users screen', () => {
  // Each test confirms with the passkey and makes several admin calls: more than the suite's default 30 s
  // on a machine that is busy with other work.
  test.describe.configure({ timeout: 60_000 });
  test.use({ signedInAs: 'admin' });

  test('an address with a sign-in account the portal did not make is refused, then taken over only once confirmed @desktop', async ({
    page,
    portal,
  }) => {
    const email = uniqueEmail('foreign');
    // Someone signs up with the address before the invite (the web API key is public).
    const squatter = await identityToolkit(portal.emulatorUrl).signUp(email, 'squatter-password');
    try {
      await openAdminPage(page, portal);
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
      await searchUsers(page, email, 1);
      await expect(rowOf(page, email)).toContainText('Invited');
      // The account someone else made is gone: its password no longer signs in.
      await expect(identityToolkit(portal.emulatorUrl).signIn(email, 'squatter-password')).rejects.toThrow();
      expect(squatter.uid).toBeTruthy();

      const takenOver = (await auditRowsOf(page, email)).filter({ hasText: 'Took over the sign-in account of' });
      // Said as a person reads it: the identity provider's user id is not for them.
      await expect(takenOver).toContainText('deleting the sign-in account, which the portal did not make');
      await expect(takenOver).not.toContainText(squatter.uid);
    } finally {
      await removeUsers(portal, [email]);
    }
  });

  test('realistic addresses: one line per user on a laptop, two-line cards with 44 px targets on a phone', async ({
    page,
    portal,
    isMobile,
  }) => {
    const tag = runTag();
    const emails = realisticEmails(tag, 30);
    try {
      await addUsers(portal, emails);
      await openAdminPage(page, portal, `?q=${tag}`);
      // 25 a page on a phone, 50 on a laptop, without asking.
      await expect(usersPager(page)).toContainText(isMobile ? '1–25 of 30 users' : '1–30 of 30 users');
      const rows = usersTable(page).locator('tbody tr');
      const heights = await rows.evaluateAll((trs) => trs.map((tr) => Math.round(tr.getBoundingClientRect().height)));
      const viewport = page.viewportSize()!;
      const firstTop = await rows.first().evaluate((tr) => tr.getBoundingClientRect().top);
      const perScreen = heights.filter(
        (_, i) => firstTop + heights.slice(0, i + 1).reduce((a, b) => a + b, 0) <= viewport.height,
      ).length;
      const emailCell = rows.first().locator('.email-cell .cell-text');
      const cut = await emailCell.evaluate((span) => span.scrollWidth > span.clientWidth);
      // The list's default order is Email A–Z.
      expect(await emailCell.getAttribute('title')).toBe([...emails].sort()[0]);

      const targets = {
        checkbox: await box(rows.first().locator('label.select-target')),
        delete: await box(rows.first().getByRole('button', { name: /^Delete / })),
        menu: await box(rows.first().getByRole('button', { name: /^More actions for / })),
        // A page that holds the whole list has no page buttons.
        pagerButton:
          (await usersPager(page).getByRole('button').count()) > 0
            ? await box(usersPager(page).getByRole('button').first())
            : null,
        search: await box(page.getByLabel('Search by email')),
        status: await box(page.getByLabel('Status')),
      };
      const fontSizes = await page
        // Fields one types into or picks from: iOS zooms into those below 16 px (a checkbox has no text).
        .locator('.admin-screen input:not([type="checkbox"]), .admin-screen select')
        .evaluateAll((fields) => fields.map((field) => getComputedStyle(field).fontSize));
      await report('list-density', {
        rowHeights: [...new Set(heights)],
        perScreen,
        addressCut: cut,
        targets,
        fontSizes,
      });

      if (isMobile) {
        // Two lines: the address, then status, date and the actions.
        for (const height of heights) expect(height).toBeLessThanOrEqual(100);
        for (const target of [targets.checkbox, targets.delete, targets.menu, targets.search, targets.status]) {
          expect(target.height).toBeGreaterThanOrEqual(44);
          expect(target.width).toBeGreaterThanOrEqual(44);
        }
        // iOS zooms into a field whose text is under 16 px.
        expect(new Set(fontSizes)).toEqual(new Set(['16px']));
        // The toolbar's ways to add users are there to tap, 44 px high and covered by nothing: what the modals
        // behind them do is the same at any width, and tested on the laptop.
        for (const name of ['Add User', 'Bulk add']) {
          const button = page.getByRole('button', { name });
          await button.click({ trial: true });
          expect((await box(button)).height, name).toBeGreaterThanOrEqual(44);
        }
      } else {
        // One line per user whatever the address: fixed columns, the address cut with an ellipsis.
        for (const height of heights) expect(height).toBeLessThanOrEqual(46);
        // At 1366×768, under the title, tabs, the one toolbar row and the selection bar: ten rows or more.
        expect(perScreen).toBeGreaterThanOrEqual(10);
        // The row's checkbox: 20 px, its label the whole cell.
        const checkbox = await box(rows.first().getByRole('checkbox'));
        expect(checkbox.width).toBeGreaterThanOrEqual(20);
        const cell = await box(rows.first().locator('td.select-cell'));
        // The cell but for its 1 px border.
        expect(Math.abs(targets.checkbox.width - cell.width)).toBeLessThanOrEqual(2);
        expect(Math.abs(targets.checkbox.height - cell.height)).toBeLessThanOrEqual(2);
      }
      await portal.expectAccessible(page);
      await screenshot(page, 'list');

      // The whole address shows while a control of its row has focus.
      await rows
        .nth(1)
        .getByRole('button', { name: /^Delete / })
        .focus();
      expect(
        await rows
          .nth(1)
          .locator('.email-cell .cell-text')
          .evaluate((span) => span.scrollWidth <= span.clientWidth),
      ).toBe(true);
    } finally {
      await removeUsers(portal, emails);
    }
  });

  test('an admin adds a user who appears in the table, then deletes them after confirming @desktop', async ({
    page,
    portal,
  }) => {
    const email = uniqueEmail('add');
    try {
      await openAdminPage(page, portal);
      await expect(rowOf(page, DEMO.admin.email)).toContainText('Admin');

      await page.getByRole('button', { name: 'Add User' }).click();
      const addModal = page.getByRole('dialog', { name: 'Add User' });
      const field = addModal.getByLabel('Email address');
      // Already on the list: said under the field, not in a second modal.
      await field.fill(DEMO.user.email);
      await addModal.getByRole('button', { name: 'Submit' }).click();
      await expect(addModal.getByText(`${DEMO.user.email} is already on the list.`)).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Error' })).toHaveCount(0);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await portal.expectAccessible(page);
      await screenshot(page, 'add-already-listed');

      await field.fill(email);
      const register = page.waitForRequest(
        (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/users',
      );
      await addModal.getByRole('button', { name: 'Submit' }).click();
      // The spec's register call goes out without the bearer token.
      expect((await register).headers().authorization).toBeUndefined();
      await expect(addModal).toBeHidden();
      await expect(page.getByRole('status').filter({ hasText: `${email} was added.` })).toBeVisible();
      await page.getByRole('button', { name: 'Show' }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(email).replace(/\./g, '\\.')}`));
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

      const deleted = (await auditRowsOf(page, email)).filter({ hasText: 'Deleted user' });
      await expect(deleted).toHaveCount(1);
      // One date format: British, 24-hour.
      await expect(deleted.locator('time')).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
      await portal.expectAccessible(page);
      await screenshot(page, 'audit');
    } finally {
      await removeUsers(portal, [email]);
    }
  });

  test('bulk add: 63 addresses in seconds, the modal held open while it runs, a summary at the end @desktop', async ({
    page,
    portal,
  }) => {
    const tag = runTag();
    const fresh = realisticEmails(tag, 61);
    const registerCalls: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/users')
        registerCalls.push(request.url());
    });
    try {
      await openAdminPage(page, portal);
      // The batch is held a moment on its way: a batched add of 63 is done in well under a second, and the
      // modal's state while a run is under way is what this part looks at.
      await page.route('**/api/users/bulk-add', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await page.getByRole('button', { name: 'Bulk add' }).click();
      const modal = page.getByRole('dialog', { name: 'Bulk add' });
      await modal
        .getByLabel('Email addresses')
        .fill([...fresh.slice(0, 30), DEMO.user.email, 'not-an-address', ...fresh.slice(30)].join('\n'));
      await expect(modal.getByText('63 addresses found.')).toBeVisible();
      const started = Date.now();
      await modal.getByRole('button', { name: 'Add users' }).click();
      await expect(modal.getByRole('button', { name: 'Stop' })).toBeVisible();
      // Neither Escape nor a click beside it closes the modal while the run is under way.
      await page.keyboard.press('Escape');
      await page.mouse.click(5, 5);
      await expect(modal).toBeVisible();
      await expect(modal.getByRole('button', { name: 'Close' })).toHaveCount(0);
      await expect(modal.getByRole('button', { name: 'Done' })).toBeVisible({ timeout: 60_000 });
      const seconds = (Date.now() - started) / 1000;
      const summary = '61 added · 1 already on the list · 1 invalid';
      await expect(modal.getByRole('status')).toHaveText(summary);
      const results = modal.getByRole('table', { name: 'Bulk add results' });
      await expect(results.getByRole('row').filter({ hasText: 'not-an-address' })).toContainText('Invalid');
      await expect(results.getByRole('row').filter({ hasText: DEMO.user.email })).toContainText('Already on the list');
      await portal.expectAccessible(page);
      await screenshot(page, 'bulk-results');
      await report('bulk-add-63', { seconds, summary });
      // None of the anonymous register calls: nothing spent from the allowance colleagues share.
      expect(registerCalls).toEqual([]);

      await modal.getByRole('button', { name: 'Done' }).click();
      await expect(modal).toBeHidden();
      await expect(page.getByRole('status').filter({ hasText: summary })).toBeVisible();
      await searchUsers(page, tag, 61);
      await screenshot(page, 'bulk-summary');
    } finally {
      await removeUsers(portal, fresh);
    }
  });

  test('bulk add: Stop acts at once and lists what it skipped @desktop', async ({ page, portal }) => {
    const tag = runTag();
    const emails = realisticEmails(tag, 120);
    try {
      await openAdminPage(page, portal);
      // The first batch is held a moment on its way, so Stop comes while it is under way on any machine.
      await page.route('**/api/users/bulk-add', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await page.getByRole('button', { name: 'Bulk add' }).click();
      const modal = page.getByRole('dialog', { name: 'Bulk add' });
      await modal.getByLabel('Email addresses').fill(emails.join('\n'));
      await modal.getByRole('button', { name: 'Add users' }).click();
      const stop = modal.getByRole('button', { name: 'Stop' });
      await stop.click();
      const clicked = Date.now();
      // At once: the 70 never sent are listed while the first 50 are still with the server.
      await expect(modal.getByText(/Stopped\. 70 not sent are skipped/)).toBeVisible();
      const listedAfterMs = Date.now() - clicked;
      await expect(modal.getByRole('table', { name: 'Bulk add results' }).getByText('Skipped')).toHaveCount(70);
      await screenshot(page, 'bulk-stopping');
      await expect(modal.getByRole('button', { name: 'Done' })).toBeVisible({ timeout: 30_000 });
      await expect(modal.getByRole('status')).toHaveText('50 added · 70 skipped');
      await report('bulk-stop', { listedAfterMs, finishedAfterMs: Date.now() - clicked });
      await portal.expectAccessible(page);
      await modal.getByRole('button', { name: 'Done' }).click();
      await expect(modal).toBeHidden();
      await expect(page.getByRole('status').filter({ hasText: '50 added · 70 skipped' })).toBeVisible();
    } finally {
      await removeUsers(portal, emails);
    }
  });

  test('the list is in the address: reload and Back keep the search, filter, order and page', async ({
    page,
    portal,
    isMobile,
  }) => {
    const tag = runTag();
    const emails = realisticEmails(tag, 30);
    try {
      await addUsers(portal, emails);
      await openAdminPage(page, portal);
      await page.getByLabel('Search by email').fill(tag);
      await expect(page).toHaveURL(new RegExp(`q=${tag}`));
      await page.getByLabel('Status').selectOption('Invited');
      await page.getByLabel('Order').selectOption('Email Z–A');
      await page.getByLabel('Per page').selectOption('25');
      await usersPager(page).getByRole('button', { name: 'Next' }).click();
      await expect(usersPager(page)).toContainText('26–30 of 30 users');
      // 25 is a phone's own page size, so the address leaves it out there.
      const size = isMobile ? '' : '&size=25';
      await expect(page).toHaveURL(new RegExp(`/admin\\?q=${tag}&status=invited&sort=-email&page=2${size}$`));

      await page.reload();
      await expect(usersPager(page)).toContainText('26–30 of 30 users');
      await expect(page.getByLabel('Search by email')).toHaveValue(tag);
      await expect(page.getByLabel('Status')).toHaveValue('invited');

      await page.goBack();
      await expect(usersPager(page)).toContainText('1–25 of 30 users');
      await page.goForward();
      await expect(usersPager(page)).toContainText('26–30 of 30 users');
      await portal.expectAccessible(page);
    } finally {
      await removeUsers(portal, emails);
    }
  });

  test('a selection is deleted after one confirmation, in one bulk call @desktop', async ({ page, portal }) => {
    const tag = runTag();
    const emails = realisticEmails(tag, 3);
    try {
      await addUsers(portal, emails);
      await openAdminPage(page, portal, `?q=${tag}`);
      await page.getByLabel('Select all on this page').check();
      await expect(page.getByText('3 selected')).toBeVisible();
      await screenshot(page, 'selection');
      await page.getByRole('button', { name: 'Delete selected' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete 3 users?' });
      await portal.expectAccessible(page);
      const bulkCall = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/users/bulk-delete');
      await confirm.getByRole('button', { name: 'Delete 3 users' }).click();
      // In the list's order (Email A–Z), whatever order they were added in.
      const sent = JSON.parse((await bulkCall).postData() ?? '{}') as { emails: string[] };
      expect([...sent.emails].sort()).toEqual([...emails].sort());
      await expect(page.getByRole('status').filter({ hasText: '3 deleted' })).toBeVisible();
      await expect(page.getByText(`No users match "${tag}".`)).toBeVisible();
    } finally {
      await removeUsers(portal, emails);
    }
  });

  test('a role change from the row menu asks first', async ({ page, portal }) => {
    const email = uniqueEmail('role');
    try {
      await addUsers(portal, [email]);
      await openAdminPage(page, portal, `?q=${encodeURIComponent(email)}`);
      await rowOf(page, email)
        .getByRole('button', { name: `More actions for ${email}` })
        .click();
      await portal.expectAccessible(page);
      await screenshot(page, 'row-menu');
      await page.getByRole('button', { name: 'Make admin' }).click();
      const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
      await expect(confirm).toContainText(`Make ${email} an administrator?`);
      await screenshot(page, 'confirm-role');
      await confirm.getByRole('button', { name: 'Make admin' }).click();
      // The demo admin alone makes it at once; while a passkeys test's administrator (with a passkey of their
      // own) runs beside this one, the promotion waits for a second administrator instead, and is withdrawn.
      const done = page.getByRole('status').filter({ hasText: `${email} is now an administrator.` });
      const waits = page
        .getByRole('status')
        .filter({ hasText: `Making ${email} an administrator waits for a second administrator's approval.` });
      await expect(done.or(waits)).toBeVisible();
      if (await waits.isVisible()) {
        await page.getByRole('button', { name: `Withdraw your request about ${email}` }).click();
        // By its text: while the withdrawal runs, the loading overlay is a status too.
        await expect(
          page.getByRole('status').filter({ hasText: `You withdrew your request about ${email}.` }),
        ).toBeVisible();
      } else {
        await expect(rowOf(page, email)).toContainText('Admin');
      }
    } finally {
      await removeUsers(portal, [email]);
    }
  });

  test('a new enrollment code for someone without a passkey: shown in a dialog, nobody signed out, focus back to the row @desktop', async ({
    page,
    portal,
  }) => {
    const email = uniqueEmail('code');
    try {
      await addUsers(portal, [email]);
      // Given the finance role, they were issued a first code, which was lost: they have no passkey yet.
      const granted = await portal.adminApi('PATCH', `/api/users/${encodeURIComponent(email)}`, { finance: true });
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      await openAdminPage(page, portal, `?q=${encodeURIComponent(email)}`);
      const toggle = rowOf(page, email).getByRole('button', { name: `More actions for ${email}` });
      await toggle.click();
      await expect(page.getByRole('button', { name: 'Show a new enrollment code' })).toBeVisible();
      await screenshot(page, 'row-menu-new-enrollment-code');
      await page.getByRole('button', { name: 'Show a new enrollment code' }).click();

      const dialog = page.getByRole('dialog', { name: 'New enrollment code' });
      await expect(dialog).toContainText(`Enrollment code for ${email}'s first passkey:`);
      await expect(dialog.locator('.enrollment-code')).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
      await expect(dialog).toContainText('They stay signed in');
      // The dialog took focus.
      await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      await portal.expectAccessible(page);
      await screenshot(page, 'new-enrollment-code');

      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect(dialog).toBeHidden();
      await expect(toggle).toBeFocused();
      // Nothing about the person changed but their code: still listed with the finance role, and no reset.
      await expect(rowOf(page, email)).toContainText('Finance');
    } finally {
      await removeUsers(portal, [email]);
    }
  });

  test('the row menu opens beside its row every time, the first opening after a page load too @desktop', async ({
    page,
    portal,
  }) => {
    // Ten page loads, each with the list and the passkey check: three times the suite's limit.
    test.slow();
    const email = DEMO.user.email;
    await openAdminPage(page, portal, `?q=${encodeURIComponent(email)}`);
    const openings: { rightEdge: number; belowButton: number }[] = [];
    for (let i = 0; i < 10; i++) {
      // Each opening the first after a page load: where the menu used to show at the window's top right.
      if (i > 0) {
        await page.reload();
        await confirmAdminPageIfAsked(page);
      }
      const toggle = rowOf(page, email).getByRole('button', { name: `More actions for ${email}` });
      await toggle.click();
      const menu = page.locator('.row-menu .dropdown-menu.show');
      await expect(menu).toBeVisible();
      // Measured at once, as a person sees it open, not after it may have moved into place.
      const [t, m] = [(await toggle.boundingBox())!, (await menu.boundingBox())!];
      openings.push({
        rightEdge: Math.round(m.x + m.width - (t.x + t.width)),
        belowButton: Math.round(m.y - (t.y + t.height)),
      });
      if (i === 0) await screenshot(page, 'row-menu-first-opening');
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
    }
    await report('row-menu-position', openings);
    for (const opening of openings) {
      // Right-aligned with its "⋯" button, just under it (Popper's 2 px offset).
      expect(Math.abs(opening.rightEdge)).toBeLessThanOrEqual(2);
      expect(opening.belowButton).toBeGreaterThanOrEqual(0);
      expect(opening.belowButton).toBeLessThanOrEqual(6);
    }

    // The checkbox ticks from anywhere in its cell, its corner too.
    const cell = rowOf(page, email).locator('td.select-cell');
    await cell.click({ position: { x: 3, y: 3 } });
    await expect(rowOf(page, email).getByRole('checkbox')).toBeChecked();
    await cell.click({ position: { x: 3, y: 3 } });
    await expect(rowOf(page, email).getByRole('checkbox')).not.toBeChecked();
  });

  test("one's own Delete says why it is disabled, in the row, for everyone", async ({ page, portal }) => {
    await openAdminPage(page, portal, `?q=${encodeURIComponent(DEMO.admin.email)}`);
    const own = rowOf(page, DEMO.admin.email);
    await expect(own.getByRole('button', { name: `Delete ${DEMO.admin.email}` })).toBeDisabled();
    await expect(own.getByText('You cannot delete your own account.')).toBeVisible();
    await expect(own.getByRole('button', { name: `Delete ${DEMO.admin.email}` })).toHaveAccessibleDescription(
      'You cannot delete your own account.',
    );
    await portal.expectAccessible(page);
  });

  test('the audit log: a card per entry on a phone, the tab in the address, passkey confirmations left out', async ({
    page,
    portal,
    isMobile,
  }) => {
    await openAdminPage(page, portal);
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(/\/admin\?tab=audit$/);
    const entries = page.getByRole('table', { name: 'Audit entries' }).locator('tbody tr');
    await expect(entries.first()).toBeVisible();
    // Every test's admin confirms with a passkey: none of those is listed until asked for.
    await expect(page.getByLabel('Events')).toHaveValue('no-confirmations');
    await expect(entries.filter({ hasText: 'Confirmed with a passkey' })).toHaveCount(0);
    const cards = await entries.evaluateAll((rows) =>
      rows.map((row) => ({ height: Math.round(row.getBoundingClientRect().height), text: row.textContent ?? '' })),
    );
    const heights = cards.map((card) => card.height);
    const sorted = [...heights].sort((a, b) => a - b);
    await report('audit-entry-heights', {
      count: heights.length,
      min: sorted[0],
      median: sorted[Math.floor(sorted.length / 2)],
      max: sorted.at(-1),
    });
    await portal.expectAccessible(page);
    await screenshot(page, 'audit');
    if (isMobile) {
      // A card: what happened and its result, who and the detail, then when; not a column 50 px wide.
      for (const { height, text } of cards) expect(height, `the card of: ${text}`).toBeLessThanOrEqual(200);
      const event = await box(entries.first().locator('.audit-event'));
      expect(event.width).toBeGreaterThanOrEqual(250);
    }
    // No internal keys: the identity provider's user ids, file hashes.
    await expect(entries.filter({ hasText: /\buid |sha256/ })).toHaveCount(0);

    await page.getByLabel('Events').selectOption('passkeys');
    await expect(entries.filter({ hasText: 'Confirmed with a passkey' }).first()).toBeVisible();

    // Reload keeps the tab; Back returns to the user list.
    await page.reload();
    await confirmAdminPageIfAsked(page).catch(() => {});
    await expect(page.getByRole('tab', { name: 'Audit log', selected: true })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('tab', { name: 'User list', selected: true })).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('on a phone the header keeps one line of at most 64 px, the address whole on a tap @phone', async ({
    page,
    portal,
  }) => {
    await openAdminPage(page, portal);
    const header = page.locator('header.app-header');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const headerBox = (await header.boundingBox())!;
    const items = {
      logo: nav.getByRole('link').first(),
      adminPage: nav.getByRole('link', { name: 'Admin Page' }),
      separator: nav.getByText('|', { exact: true }),
      email: nav.getByRole('button', { name: DEMO.admin.email }),
      signOut: nav.getByRole('button', { name: 'Sign Out' }),
    };
    const sizes: Record<string, { width: number; height: number }> = {};
    for (const [name, item] of Object.entries(items)) {
      await expect(item).toBeVisible();
      const itemBox = (await item.boundingBox())!;
      expect(itemBox.y).toBeGreaterThanOrEqual(headerBox.y);
      expect(itemBox.y + itemBox.height).toBeLessThanOrEqual(headerBox.y + headerBox.height);
      sizes[name] = await box(item);
    }
    // Side by side in the spec's order, none over another (only the address is cut).
    const boxes = await Promise.all(Object.values(items).map(async (item) => (await item.boundingBox())!));
    for (let i = 1; i < boxes.length; i++)
      expect(boxes[i]!.x).toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width - 0.5);
    await report('phone-header', { height: Math.round(headerBox.height), items: sizes });
    expect(headerBox.height).toBeLessThanOrEqual(64);
    for (const name of ['logo', 'adminPage', 'email', 'signOut'])
      expect(sizes[name]!.height).toBeGreaterThanOrEqual(44);

    await items.email.tap();
    await expect(items.email).toHaveAttribute('aria-expanded', 'true');
    const whole = page.locator('.header-email-whole');
    await expect(whole).toBeVisible();
    await expect(whole).toHaveText(DEMO.admin.email);
    expect(await whole.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await screenshot(page, 'header-email-whole');
  });
});

test.describe('the admin users screen, to an ordinary user', () => {
  test.use({ signedInAs: 'reader' });

  test('an ordinary user on /admin is told so once and offered the way back to the invoices @desktop', async ({
    page,
    portal,
  }) => {
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    const dialog = page.getByRole('dialog', { name: 'Error' });
    await expect(dialog.getByText(NO_PERMISSION, { exact: true })).toBeVisible();
    await expect(page.getByText(NO_PERMISSION)).toHaveCount(1);
    await expect(page.getByRole('table')).toHaveCount(0);
    await portal.expectAccessible(page);
    await screenshot(page, 'no-permission');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(NO_PERMISSION)).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Add User' })).toHaveCount(0);
    await portal.expectAccessible(page);
    await screenshot(page, 'no-permission-after');
    await page.getByRole('link', { name: 'Back to the invoices' }).click();
    await expect(page).toHaveURL(/\/invoice$/);
  });
});

test.describe('the admin users screen, to an account not on the list', () => {
  test('an account that is not allowed at all is offered Sign Out on /admin @desktop', async ({ page, portal }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    await portal.signIn(page, DEMO.outsider);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await page.getByRole('dialog', { name: 'Error' }).getByRole('button', { name: 'Continue' }).click();
    const main = page.getByRole('main');
    await expect(main.getByText(`You are signed in as ${DEMO.outsider.email}.`)).toBeVisible();
    await portal.expectAccessible(page);
    await screenshot(page, 'not-allowed');
    await main.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
