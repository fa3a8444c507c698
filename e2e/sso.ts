import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** What the single sign-on specs need of a portal: where it is, and its allowlist kept by its admin. */
export interface SsoPortal {
  url: string;
  addUser(email: string): Promise<void>;
  removeUser(email: string): Promise<void>;
}

export const SSO_COMPANY = 'Example Company';
const NOT_AUTHORIZED = 'You are not authorized to see the invoice. Please contact the UK IT team.';

/** A fresh address per run: the stack and its demo data are shared by every spec. */
export const uniqueEmail = (label: string) =>
  `e2e-sso-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/**
 * "Sign in with Example Company", then the emulator's stand-in for the company's sign-in page in the pop-up:
 * the account the directory knows by this address, or a new one with it.
 */
export async function signInWithCompany(page: Page, email: string) {
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: `Sign in with ${SSO_COMPANY}` }).click();
  const popup = await popupOpened;
  await popup.waitForLoadState('domcontentloaded');
  const known = popup.locator('.js-reuse-account').filter({ hasText: email });
  if (await known.count()) {
    await known.first().click();
  } else {
    await popup.locator('#add-account-button').click();
    await popup.locator('#email-input').fill(email);
    await popup.locator('#sign-in').click();
  }
  await popup.waitForEvent('close');
}

/** The invoice on screen: the frame titled with the parcel code. */
async function expectInvoice(page: Page, parcelCode: string) {
  await expect(page.locator(`iframe[title="${parcelCode}"]`)).toHaveAttribute('src', /^blob:/, { timeout: 20_000 });
}

async function expectNotAllowed(page: Page) {
  const dialog = page.getByRole('dialog').filter({ hasText: NOT_AUTHORIZED });
  await expect(dialog).toBeVisible({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('main')).toContainText('Your account is not allowed to use this portal.');
  await expect(page.locator('iframe[title], canvas')).toHaveCount(0);
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The same flows for an OIDC and a SAML provider: `portal()` is read inside each test. */
export function ssoFlows(kind: 'OIDC' | 'SAML', portal: () => SsoPortal) {
  test.beforeEach(() => {
    // Each flow goes through a pop-up and the emulator's pages, some twice: slow on a busy 2-core machine.
    test.setTimeout(90_000);
  });

  test(`${kind}: the login screen offers "Sign in with ${SSO_COMPANY}" beside the e-mail and password form`, async ({
    page,
  }) => {
    await page.goto(`${portal().url}/login`);
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
    await expect(page.getByLabel('Email address')).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Forgot Password' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
    await expect(page.getByRole('button', { name: `Sign in with ${SSO_COMPANY}` })).toBeVisible();
  });

  test(`${kind}: a person on the list opens a mailed invoice link signed out, signs in with the company account and lands on the invoice`, async ({
    page,
  }) => {
    const email = uniqueEmail(`${kind.toLowerCase()}-listed`);
    await portal().addUser(email);
    await page.goto(`${portal().url}/invoice?parcelCode=DEMO000001`);
    await expect(page).toHaveURL(/\/login$/);
    await signInWithCompany(page, email);
    await expect(page).toHaveURL(/\/invoice\?parcelCode=DEMO000001$/);
    await expectInvoice(page, 'DEMO000001');
    await expect(page.getByText(email)).toBeVisible();
  });

  test(`${kind}: a person the company knows but the portal's list does not gets the not-allowed answer`, async ({
    page,
  }) => {
    const email = uniqueEmail(`${kind.toLowerCase()}-outsider`);
    await page.goto(`${portal().url}/invoice?parcelCode=DEMO000001`);
    await signInWithCompany(page, email);
    await expect(page).toHaveURL(/\/invoice\?parcelCode=DEMO000001$/);
    await expectNotAllowed(page);
  });

  test(`${kind}: a person removed from the list is refused at the next sign-in with the company account`, async ({
    page,
  }) => {
    const email = uniqueEmail(`${kind.toLowerCase()}-leaver`);
    await portal().addUser(email);
    await page.goto(`${portal().url}/invoice?parcelCode=DEMO000002`);
    await signInWithCompany(page, email);
    await expectInvoice(page, 'DEMO000002');
    await signOut(page);

    await portal().removeUser(email);
    await page.goto(`${portal().url}/invoice?parcelCode=DEMO000002`);
    await expect(page).toHaveURL(/\/login$/);
    // The directory still knows the person: the pop-up offers the same company account again.
    await signInWithCompany(page, email);
    await expectNotAllowed(page);
  });
}
