import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '@portal/dev-stack';
import { STORED_USER_KEY_PREFIX } from '../../apps/web/src/lib/first-load-plan.ts';
import { DEMO, expect, test } from '../fixtures.ts';
import { expectLoginPageWithinBudget } from '../login-downloads.ts';

const APPLICATION_ERROR = 'Application error. Please contact the UK IT team.';
const CRASH = 'Oops! Something went wrong.';

/** The built file of one of the SPA's modules (a path under apps/web), from the build's manifest. */
function builtFileOf(module: string): string {
  const manifest = JSON.parse(
    readFileSync(path.join(REPO_ROOT, 'apps/web/dist/.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string }>;
  const file = manifest[module]?.file;
  if (!file) throw new Error(`${module} is not in the build's manifest: renamed or moved?`);
  return `/${file}`;
}

/** On the invoice page of DEMO000001, signed in already or after `signIn`. */
async function signedInOnInvoice(page: Page, signIn?: (page: Page) => Promise<void>) {
  await page.goto('/invoice?parcelCode=DEMO000001');
  await signIn?.(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Invoice DEMO000001' })).toBeVisible();
}

/** Marks this document, so a test can tell whether the page has since been reloaded. */
const markDocument = (page: Page) =>
  page.evaluate(() => ((window as { firstDocument?: boolean }).firstDocument = true));
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as { firstDocument?: boolean }).firstDocument === true);

test.describe('what a page loads first, and when a download fails', () => {
  test('the login page downloads only the login, brotli, within its budget until the network is idle', async ({
    page,
    portal,
  }) => {
    const scripts = await expectLoginPageWithinBudget(page, portal.url);
    // The identity provider's SDK waits for a sign-in: nobody has started one.
    const sdk = builtFileOf('src/lib/firebase.ts');
    expect(scripts.map((script) => new URL(script.url).pathname)).not.toContain(sdk);
  });

  test('Firebase keeps the sign-in under the key prefix the first-load plan looks for', async ({ page, portal }) => {
    await signedInOnInvoice(page, (page) => portal.signIn(page, DEMO.user));
    const keys = await page.evaluate(() => Object.keys(localStorage));
    expect(keys.filter((key) => key.startsWith(STORED_USER_KEY_PREFIX))).toHaveLength(1);
  });

  // Signed in already, with the reader's shared state: the sign-in itself is the test's above.
  test.describe('signed in already', () => {
    test.use({ signedInAs: 'reader' });

    test('the network drops after the first paint: the Error modal still says "Application error", with Continue', async ({
      page,
    }) => {
      await signedInOnInvoice(page);
      // The next load paints, and then nothing more arrives: neither the error modal's code (asked for after the
      // paint) nor an answer to the invoice request, which fails with no response — the spec's "Application error".
      const dialogFile = builtFileOf('src/components/BootstrapErrorModal.tsx');
      const dialogRequests: string[] = [];
      await page.route(`**${dialogFile}`, async (route) => {
        dialogRequests.push(route.request().url());
        await route.abort('internetdisconnected');
      });
      let dropNetwork!: () => void;
      const dropped = new Promise<void>((resolve) => (dropNetwork = resolve));
      await page.route(
        (url) => url.pathname === '/api/invoice',
        async (route) => {
          await dropped;
          await route.abort('internetdisconnected');
        },
      );
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Invoice DEMO000001' })).toBeVisible();
      await expect.poll(() => dialogRequests.length).toBeGreaterThan(0);
      await markDocument(page);
      dropNetwork();

      const dialog = page.getByRole('dialog', { name: 'Error' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByText(APPLICATION_ERROR, { exact: true })).toBeVisible();
      await expect(page.getByText(CRASH)).toHaveCount(0);
      // The dialog's failed download did not reload the page away from the error.
      expect(await sameDocument(page)).toBe(true);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await expect(dialog).toBeHidden();
    });

    test('a chunk gone after a rollout reloads the page once, and a second failure does not loop', async ({ page }) => {
      await signedInOnInvoice(page);
      // The header's "Sign out everywhere" modal loads when asked for: the previous build's file is gone.
      const modalFile = builtFileOf('src/features/auth/components/SignOutEverywhereModal.tsx');
      await page.route(`**${modalFile}`, (route) => route.fulfill({ status: 404, body: 'Not Found' }));
      const askSignOutEverywhere = async () => {
        await page.getByRole('button', { name: 'More account options' }).click();
        await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      };

      await markDocument(page);
      await askSignOutEverywhere();
      await expect.poll(() => sameDocument(page).catch(() => true)).toBe(false);
      await expect(page.getByRole('heading', { level: 1, name: 'Invoice DEMO000001' })).toBeVisible();

      // The reloaded page fails too: not a rollout. No second reload; the failure shows as the fallback screen.
      await markDocument(page);
      await askSignOutEverywhere();
      await expect(page.getByText(CRASH)).toBeVisible();
      expect(await sameDocument(page)).toBe(true);
    });
  });
});
