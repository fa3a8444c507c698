import http from 'node:http';
import type { Page } from '@playwright/test';
import { DEMO, expect, test, type Portal } from '../fixtures.ts';
import { saveScreenshot } from '../screenshots.ts';
import { E2E_LOOKUP_LIMIT } from '../global-setup.ts';

const SENT = 'A password reset email has been sent to your email address, please follow the link mentioned in it.';
const CHECK = 'Please check the email address you have provided.';
const NEW_PASSWORD = 'a-new-password-for-e2e';

interface OobCode {
  email: string;
  oobCode: string;
  oobLink: string;
  requestType: string;
}

/** The reset mails the Auth emulator has "sent", newest last. */
async function resetMails(portal: Portal, email: string): Promise<OobCode[]> {
  const response = await fetch(`${portal.emulatorUrl}/emulator/v1/projects/${portal.projectId}/oobCodes`);
  const { oobCodes } = (await response.json()) as { oobCodes: OobCode[] };
  return oobCodes.filter((code) => code.email === email && code.requestType === 'PASSWORD_RESET');
}

async function adminCall(portal: Portal, method: 'GET' | 'POST' | 'DELETE', path: string) {
  const { status, body } = await portal.adminApi(method, `/api${path}`);
  return { status, body: body as Record<string, unknown> };
}

/**
 * Puts invited@example.com back as the seed left it (allowlisted, registered, no password, not activated)
 * through the admin API, so other specs find the demo account they expect.
 */
async function restoreInvited(portal: Portal) {
  const email = DEMO.invited.email;
  const removed = await adminCall(portal, 'DELETE', `/users/${email}`);
  expect([200, 404]).toContain(removed.status);
  expect((await adminCall(portal, 'POST', `/users/${email}`)).status).toBe(201);
  const registered = await fetch(`${portal.url}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: email }),
  });
  expect(registered.status).toBe(200);
}

/**
 * An unauthenticated lookup sent from another loopback address: a burst from there spends that client's
 * allowance (and makes answers about the address late), never the browser's (127.0.0.1), so later specs
 * are not throttled.
 */
function lookupFrom(localAddress: string, portal: Portal, email: string): Promise<number> {
  const url = new URL(`/api/users/${encodeURIComponent(email)}`, portal.url);
  url.hostname = '127.0.0.1';
  return new Promise((resolve, reject) => {
    http
      .get(url, { localAddress }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

async function openModal(page: Page, loginEmail = '') {
  await page.goto('/login');
  if (loginEmail) await page.getByLabel('Email address').fill(loginEmail);
  await page.getByRole('button', { name: 'Forgot Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Forgot Password' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('forgot password', () => {
  test('a first-time user sets a password by mail, signs in with it and sees the invoice', async ({ page, portal }) => {
    const email = DEMO.invited.email;
    expect((await adminCall(portal, 'GET', `/users/${email}`)).body).toMatchObject({ activated: false });
    const mailsBefore = (await resetMails(portal, email)).length;
    try {
      const dialog = await openModal(page, email);
      await expect(dialog.getByLabel('Email address')).toHaveValue(email);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await expect(dialog.getByText(SENT)).toBeVisible();

      const mails = await resetMails(portal, email);
      expect(mails).toHaveLength(mailsBefore + 1);
      const mail = mails.at(-1)!;
      expect(new URL(mail.oobLink).searchParams.get('continueUrl')).toBe(`${portal.url}/#/invoice`);
      // The mail alone activates nothing: the server marks the account on its first signed-in request.
      expect((await adminCall(portal, 'GET', `/users/${email}`)).body).toMatchObject({ activated: false });

      await dialog.getByRole('button', { name: 'Back to Login' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('button', { name: 'Forgot Password' })).toBeFocused();

      // What following the mailed link does: the emulator's page sets the password, then continues.
      const reset = await fetch(
        `${portal.emulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=any`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ oobCode: mail.oobCode, newPassword: NEW_PASSWORD }),
        },
      );
      expect(reset.status).toBe(200);

      await page.goto('/#/invoice?parcelCode=DEMO000001');
      await expect(page).toHaveURL(/\/login$/);
      await portal.signIn(page, { email, password: NEW_PASSWORD });
      await expect(page).toHaveURL(/\/invoice\?parcelCode=DEMO000001$/);
      await expect(page.getByRole('heading', { name: /DEMO000001/ })).toBeVisible();
      await expect(page.getByText(email)).toBeVisible();
      // The heading and the address show before the page's first signed-in call has been answered, which is
      // what marks the account: on a busy machine the check came first.
      await expect
        .poll(
          async () => ((await adminCall(portal, 'GET', `/users/${email}`)).body as { activated?: boolean }).activated,
        )
        .toBe(true);
    } finally {
      await restoreInvited(portal);
    }
    expect((await adminCall(portal, 'GET', `/users/${email}`)).body).toMatchObject({ activated: false });
  });

  test('an unknown address gets the check-your-address message and no mail', async ({ page, portal }) => {
    const email = 'nobody-here@example.com';
    const dialog = await openModal(page);
    await dialog.getByLabel('Email address').fill(email);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(CHECK);
    await portal.expectAccessible(page);
    await saveScreenshot(page, 'unknown-address-desktop.png');
    expect(await resetMails(portal, email)).toEqual([]);
  });

  test('validation messages show once the field is touched, and a malformed address sends nothing', async ({
    page,
    portal,
  }) => {
    const dialog = await openModal(page);
    const field = dialog.getByLabel('Email address');
    await expect(field).toBeFocused();
    await expect(dialog.getByText('Required')).toHaveCount(0);
    await portal.expectAccessible(page);
    await field.blur();
    await expect(dialog.getByText('Required')).toBeVisible();
    await field.fill('not-an-email');
    await expect(dialog.getByText('Invalid email address')).toBeVisible();
    await field.fill(`${'a'.repeat(10 * 1024)}@example.com`);
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/users/')) lookups.push(request.url());
    });
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByText('Invalid email address')).toBeVisible();
    await portal.expectAccessible(page);
    expect(lookups).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('a burst of lookups is limited per client, and cannot lock the person asked about out of the modal', async ({
    page,
    portal,
  }) => {
    // Fresh address and client for each run, so a rerun within the minute starts with full allowances.
    const email = `burst-${Date.now()}@example.com`;
    const client = `127.0.${1 + Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
    const statuses: number[] = [];
    for (let i = 0; i <= E2E_LOOKUP_LIMIT; i++) statuses.push(await lookupFrom(client, portal, email));
    expect(statuses).toEqual([...Array<number>(E2E_LOOKUP_LIMIT).fill(404), 429]);

    // The address's allowance is spent too, by someone else: the person still gets an answer, only later.
    const dialog = await openModal(page, email);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(CHECK);
    expect(await resetMails(portal, email)).toEqual([]);
  });

  for (const viewport of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 375, height: 740 },
  ]) {
    test(`looks right on a ${viewport.name} (${viewport.width} px)`, async ({ page, portal }) => {
      await page.setViewportSize(viewport);
      const dialog = await openModal(page, DEMO.user.email);
      await saveScreenshot(page, `form-${viewport.name}.png`);
      await dialog.getByLabel('Email address').fill('not-an-email');
      await dialog.getByLabel('Email address').blur();
      await expect(dialog.getByText('Invalid email address')).toBeVisible();
      await saveScreenshot(page, `invalid-${viewport.name}.png`);
      await dialog.getByLabel('Email address').fill(DEMO.user.email);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      await expect(dialog.getByText(SENT)).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Back to Login' })).toBeFocused();
      await portal.expectAccessible(page);
      await saveScreenshot(page, `sent-${viewport.name}.png`);
    });
  }
});
