import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { demoAccount, findFreePort, identityToolkit, startStack } from '@portal/dev-stack';
import {
  createSoftwareAuthenticator,
  enrollPasskey,
  httpPortalSession,
  stepUpWithPasskey,
} from '@portal/dev-stack/passkeys';
import { expect, test } from './fixtures.ts';
import { saveScreenshot } from './screenshots.ts';
import { expectLoginPageWithinBudget } from './login-downloads.ts';

/** What the single sign-on specs need of a portal: where it is, and its allowlist kept by its admin. */
export interface SsoPortal {
  url: string;
  addUser(email: string): Promise<void>;
  removeUser(email: string): Promise<void>;
  makeAdmin(email: string): Promise<void>;
  stop(): Promise<void>;
}

export const SSO_COMPANY = 'Example Company';

const GAPI_STAND_IN = readFileSync(new URL('./gapi-stand-in.js', import.meta.url), 'utf8');

/**
 * These machines reach no internet: Google's iframe library, which the Firebase SDK's pop-up and the
 * emulator's helper frame load, is served by its stand-in (gapi-stand-in.js), and the style sheets and fonts
 * the emulator's provider page asks the internet for fail at once rather than after a DNS timeout.
 */
export async function offline(context: BrowserContext) {
  await context.route('https://apis.google.com/js/api.js*', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: GAPI_STAND_IN }),
  );
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) => route.abort());
}

/**
 * A stack of its own with single sign-on through `providerId`: a deployment has one provider, and the shared
 * stack's login page stays as a password-only deployment's (its pages load no sign-in pop-up helper). The
 * demo admin's first passkey (the seed's code) confirms the calls that change the list.
 */
export async function startSsoStack(providerId: string): Promise<SsoPortal> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `portal-e2e-${providerId.split('.')[0]}-`));
  const stack = await startStack({
    port: await findFreePort(),
    emulatorPort: await findFreePort(),
    dataDir,
    // The compiled API (built by then): it starts in seconds where tsx would compile the sources first.
    api: 'compiled',
    // Started beside the shared stack and its browsers: on a busy 2-core machine firebase-tools takes longer.
    readyTimeoutMs: 240_000,
    env: {
      SSO_PROVIDER_ID: providerId,
      SSO_BUTTON_LABEL: SSO_COMPANY,
      SSO_ALLOWED_DOMAINS: 'example.com',
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '10000',
      RATE_LIMIT_ANONYMOUS_CONCURRENCY: '1000',
      LOG_LEVEL: 'warn',
    },
  });
  const url = stack.url;
  const admin = demoAccount('admin@example.com');
  const { idToken } = await identityToolkit(stack.emulator.url).signIn(admin.email, admin.password);
  const session = httpPortalSession(url, idToken);
  const passkey = createSoftwareAuthenticator({ origin: url, signCountFromClock: true });
  await enrollPasskey(session.call, passkey, { enrollmentCode: stack.demoAdminEnrollment?.code });
  const adminCall = async (method: 'POST' | 'DELETE' | 'PATCH', email: string, body?: unknown) => {
    const send = () => session.call(method, `/api/users/${encodeURIComponent(email)}`, body);
    let answer = await send();
    if (answer.status === 403) {
      await stepUpWithPasskey(session.call, passkey);
      answer = await send();
    }
    return answer.status;
  };
  return {
    url,
    async addUser(email) {
      expect(await adminCall('POST', email)).toBe(201);
    },
    async removeUser(email) {
      expect(await adminCall('DELETE', email)).toBe(200);
    },
    async makeAdmin(email) {
      expect(await adminCall('PATCH', email, { admin: true })).toBe(200);
    },
    async stop() {
      await stack.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

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
  // Waited for from before the click that ends the sign-in: the portal closes the pop-up once it has the
  // answer, which can be before the click's own reply reaches this test, and a wait for the 'close' of a page
  // already closed never ends.
  const closed = popup.waitForEvent('close');
  await popup.waitForLoadState('domcontentloaded');
  const known = popup.locator('.js-reuse-account').filter({ hasText: email });
  if (await known.count()) {
    await known.first().click();
  } else {
    await popup.locator('#add-account-button').click();
    await popup.locator('#email-input').fill(email);
    await popup.locator('#sign-in').click();
  }
  await closed;
}

/** The invoice on screen: the frame titled with the parcel code. */
async function expectInvoice(page: Page, parcelCode: string) {
  await expect(page.locator(`iframe[title="${parcelCode}"]`)).toHaveAttribute('src', /^blob:/, { timeout: 20_000 });
}

/**
 * The portal's refusal of a company sign-in, said on the login screen before the sign-in counts (decision
 * 0087): the person stays signed out, with the portal's sentence and the way to try again.
 */
async function expectRefusedAtLogin(page: Page, message: string) {
  await expect(page.getByRole('alert')).toHaveText(message, { timeout: 20_000 });
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: `Sign in with ${SSO_COMPANY}` })).toBeEnabled();
  await expect(page.locator('iframe[title], canvas')).toHaveCount(0);
}

const NOT_ALLOWED = 'Your account is not allowed to use this portal. Please contact the website administrator.';

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign Out' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
}

/**
 * The flows for an OIDC or a SAML provider, on a stack of their own started once for the file (the tests
 * run one after another in one worker).
 */
export function ssoFlows(kind: 'OIDC' | 'SAML', providerId: string) {
  test.describe.configure({ mode: 'serial' });
  let started: SsoPortal | undefined;
  const portal = () => started!;

  test.beforeAll(async () => {
    test.setTimeout(420_000);
    started = await startSsoStack(providerId);
  });

  test.afterAll(async () => {
    await started?.stop();
  });

  test.beforeEach(async ({ context }) => {
    // Each flow goes through a pop-up and the emulator's pages, some twice: slow on a busy 2-core machine.
    test.setTimeout(90_000);
    await offline(context);
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

  test(`${kind}: the login page with single sign-on downloads only the login until someone starts to use it`, async ({
    page,
  }) => {
    const before = new Set((await expectLoginPageWithinBudget(page, portal().url)).map((script) => script.url));
    // The first key readies the pop-up: the identity provider's SDK and its single sign-on code load then.
    const sdkLoading = page.waitForResponse(
      (response) => new URL(response.url()).pathname.endsWith('.js') && !before.has(response.url()),
    );
    await page.getByLabel('Email address').press('a');
    expect((await sdkLoading).ok()).toBe(true);
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
    await expectRefusedAtLogin(page, NOT_ALLOWED);
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
    await expectRefusedAtLogin(page, NOT_ALLOWED);
  });

  test(`${kind}: a person with a password links the company account with it once, and both ways work after`, async ({
    page,
  }) => {
    const { email, password } = demoAccount('user@example.com');
    await page.goto(`${portal().url}/invoice?parcelCode=DEMO000003`);
    await expect(page).toHaveURL(/\/login$/);
    await signInWithCompany(page, email);
    await expect(page.getByRole('status').filter({ hasText: 'Your portal account has a password.' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByLabel('Email address')).toHaveValue(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectInvoice(page, 'DEMO000003');
    await signOut(page);

    // The spec's e-mail and password sign-in is untouched by the link.
    await page.goto(`${portal().url}/invoice?parcelCode=DEMO000003`);
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectInvoice(page, 'DEMO000003');
    await signOut(page);

    // And the company sign-in goes straight in now.
    await page.goto(`${portal().url}/invoice?parcelCode=DEMO000003`);
    await signInWithCompany(page, email);
    await expectInvoice(page, 'DEMO000003');
  });

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`${kind}: at ${viewport.width}×${viewport.height} the button is a 44 px touch target and the page is axe clean`, async ({
      page,
      portal: shared,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${portal().url}/login`);
      const button = page.getByRole('button', { name: `Sign in with ${SSO_COMPANY}` });
      await expect(button).toBeVisible();
      expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await shared.expectAccessible(page);
      await saveScreenshot(page, `login-sso-${kind.toLowerCase()}-${viewport.width}x${viewport.height}.png`, {
        fullPage: true,
      });
    });
  }

  test(`${kind}: an administrator signed in with the company account still meets the passkey step`, async ({
    page,
  }) => {
    // The provider's own MFA does not stand in for the passkey (decision 0069).
    const email = uniqueEmail(`${kind.toLowerCase()}-admin`);
    await portal().addUser(email);
    await portal().makeAdmin(email);
    await page.goto(`${portal().url}/admin`);
    await signInWithCompany(page, email);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('region', { name: 'Set up a passkey' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('table', { name: 'Allowed users' })).toHaveCount(0);
  });
}
