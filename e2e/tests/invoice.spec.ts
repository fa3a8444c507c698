import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO, expect, test, type Portal } from '../fixtures.ts';
import { saveScreenshot, SCREENSHOTS_WANTED } from '../screenshots.ts';

const NOT_AUTHORIZED = 'You are not authorized to see the invoice. Please contact the UK IT team.';
const DOUBLE_CHECK = 'Please double check your parcel code and try the link again';

/**
 * Keeps every Blob the page turns into a `blob:` URL, so a test can read the exact bytes behind the frame.
 * (Fetching the URL from the page is refused, rightly, by the CSP's connect-src.)
 */
async function recordObjectUrls(page: Page) {
  await page.addInitScript(() => {
    const blobs = new Map<string, Blob>();
    (window as unknown as { __objectUrlBlobs: Map<string, Blob> }).__objectUrlBlobs = blobs;
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (object: Blob | MediaSource) => {
      const url = create(object);
      if (object instanceof Blob) blobs.set(url, object);
      return url;
    };
  });
}

/**
 * The sha256 of the bytes the screen shows, read inside the page from the `blob:` URL behind Download; with it,
 * that the invoice is on screen: in the frame (desktop) or drawn as pages (phone).
 */
async function shownSha256(page: Page, parcelCode: string, isMobile: boolean): Promise<string> {
  const download = page.getByRole('link', { name: 'Download' });
  await expect(download).toHaveAttribute('href', /^blob:/);
  const src = (await download.getAttribute('href'))!;
  if (isMobile) {
    await expect(page.getByRole('img', { name: `Invoice ${parcelCode}, page 1 of 1` })).toBeVisible({
      timeout: 25_000,
    });
    await expect(page.getByRole('link', { name: 'Open PDF' })).toHaveAttribute('href', src);
  } else {
    await expect(page.locator(`iframe[title="${parcelCode}"]`)).toHaveAttribute('src', src);
  }
  return page.evaluate(async (url) => {
    const blob = (window as unknown as { __objectUrlBlobs: Map<string, Blob> }).__objectUrlBlobs.get(url);
    if (!blob) throw new Error(`no Blob was made into ${url}`);
    const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
    return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  }, src);
}

/** The sha256 of the stored invoice, fetched from the API with the same user's token. */
async function storedSha256(portal: Portal, parcelCode: string): Promise<string> {
  const token = await portal.idToken(DEMO.user);
  const response = await fetch(`${portal.url}/api/invoice?parcelCode=${parcelCode}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return createHash('sha256').update(bytes).digest('hex');
}

async function expectErrorModal(page: Page, message: string) {
  const dialog = page.getByRole('dialog', { name: 'Error' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(message, { exact: true })).toBeVisible();
  return dialog;
}

// The phone runs what it draws or reaches differently (the pages drawn by PDF.js, 44 px controls on the way
// to an invoice, the error modal's among them); a link's routing, a refusal's words, a reload and a call not
// made are the same at any width, so those run on the laptop only (@desktop).
test.describe('the invoice screen', () => {
  test.beforeEach(async ({ page }) => recordObjectUrls(page));

  test('a signed-out link to /invoice?parcelCode= leads, after sign-in, to that very PDF', async ({
    page,
    portal,
    isMobile,
  }) => {
    await page.goto('/invoice?parcelCode=DEMO000001');
    await expect(page).toHaveURL(/\/login$/);
    await portal.signIn(page, DEMO.user);
    await expect(page).toHaveURL(/\/invoice\?parcelCode=DEMO000001$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Invoice DEMO000001' })).toBeVisible();

    expect(await shownSha256(page, 'DEMO000001', isMobile)).toBe(await storedSha256(portal, 'DEMO000001'));
    const download = page.getByRole('link', { name: 'Download' });
    await expect(download).toHaveAttribute('download', 'DEMO000001.pdf');
    if (isMobile) {
      await expectPagesSpanTheScreen(page);
    } else {
      const frameBox = await page.locator('iframe[title="DEMO000001"]').boundingBox();
      expect(frameBox?.height).toBe(800);
      // Print reaches into the frame, which works only while it is same-origin (a blob: URL of this page).
      // Headless Chromium cannot print a PDF (its renderer crashes), so the frame's print() is stood in for.
      await page.evaluate(() => {
        const frameWindow = document.querySelector('iframe')!.contentWindow!;
        frameWindow.print = () => void document.body.setAttribute('data-printed', 'yes');
      });
      await page.getByRole('button', { name: 'Print' }).click();
      await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
    }
    await portal.expectAccessible(page);
  });

  test('a hash-route link /#/invoice?parcelCode= works the same @desktop', async ({ page, portal, isMobile }) => {
    await page.goto('/#/invoice?parcelCode=DEMO000002');
    await expect(page).toHaveURL(/\/login$/);
    await portal.signIn(page, DEMO.user);
    await expect(page).toHaveURL(/\/invoice\?parcelCode=DEMO000002$/);
    expect(await shownSha256(page, 'DEMO000002', isMobile)).toBe(await storedSha256(portal, 'DEMO000002'));
  });

  test('a signed-in account that is not on the list is told so and offered Sign Out, not a parcel code @desktop', async ({
    page,
    portal,
  }) => {
    await page.goto('/invoice?parcelCode=DEMO000001');
    await portal.signIn(page, DEMO.outsider);
    await expect(page).toHaveURL(/\/invoice\?parcelCode=DEMO000001$/);
    const dialog = await expectErrorModal(page, NOT_AUTHORIZED);
    await portal.expectAccessible(page);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('iframe, canvas')).toHaveCount(0);
    const main = page.getByRole('main');
    await expect(main.getByText(`You are signed in as ${DEMO.outsider.email}.`)).toBeVisible();
    await expect(main).toContainText('Your account is not allowed to use this portal.');
    // No other parcel code would help; asking again would not either.
    await expect(page.getByLabel('Parcel code')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reload' })).toHaveCount(0);
    await portal.expectAccessible(page);
    await saveScreenshot(page, 'invoice-not-allowed.png', { fullPage: true });
    await main.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('every control on the way to an invoice is at least 44 px on a phone, focus back in the field after an error @phone', async ({
    page,
    portal,
  }) => {
    // Buttons, fields and button-like links; a link inside a sentence is sized by its text (WCAG's exception).
    const controls = 'button, input:not([type=hidden]), select, a.btn, nav a';
    const sizes: { where: string; name: string; width: number; height: number }[] = [];
    const measure = async (where: string) => {
      for (const control of await page.locator(controls).all()) {
        if (!(await control.isVisible())) continue;
        const { width, height } = (await control.boundingBox())!;
        const name = (await control.getAttribute('aria-label')) ?? (await control.innerText()).trim();
        sizes.push({ where, name: name || (await control.evaluate((element) => element.id)), width, height });
      }
    };
    await page.goto('/invoice?parcelCode=DEMO000001');
    await expect(page.getByLabel('Email address')).toBeVisible();
    await measure('login');
    await portal.signIn(page, DEMO.user);
    await expect(page.getByRole('link', { name: 'Download' })).toHaveAttribute('href', /^blob:/);
    await measure('invoice');
    await page.goto('/invoice?parcelCode=NOPE0000');
    const dialog = await expectErrorModal(page, DOUBLE_CHECK);
    await measure('error modal');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog).toBeHidden();
    // The way on is another code: focus is in its field, not on the page's body.
    await expect(page.getByLabel('Parcel code')).toBeFocused();
    await measure('parcel-code form');
    const smallest = [...sizes].sort((a, b) => Math.min(a.width, a.height) - Math.min(b.width, b.height));
    process.stdout.write(`phone path, smallest controls: ${JSON.stringify(smallest.slice(0, 3))}\n`);
    for (const size of sizes) {
      expect(size.height, `${size.where}: ${size.name}`).toBeGreaterThanOrEqual(44);
      expect(size.width, `${size.where}: ${size.name}`).toBeGreaterThanOrEqual(44);
    }
  });

  test('a link without a parcel code asks to double-check it and calls nothing @desktop', async ({ page, portal }) => {
    const invoiceCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/invoice')) invoiceCalls.push(request.url());
    });
    await page.goto('/login');
    await portal.signIn(page, DEMO.user);
    await expect(page).toHaveURL(/\/$/);
    await expectErrorModal(page, DOUBLE_CHECK);
    await page.waitForLoadState('networkidle');
    expect(invoiceCalls).toEqual([]);
  });

  // Signed in already, with the reader's shared state: the way in is the tests' above.
  test.describe('signed in already', () => {
    test.use({ signedInAs: 'reader' });

    test('Reload fetches the invoice again and shows the same bytes @desktop', async ({ page, isMobile }) => {
      await page.goto('/invoice?parcelCode=DEMO000003');
      const first = await shownSha256(page, 'DEMO000003', isMobile);
      const reloaded = page.waitForResponse((response) =>
        response.url().includes('/api/invoice?parcelCode=DEMO000003'),
      );
      await page.getByRole('button', { name: 'Reload' }).click();
      expect((await reloaded).status()).toBe(200);
      expect(await shownSha256(page, 'DEMO000003', isMobile)).toBe(first);
    });

    test('an unknown parcel code asks to double-check it @desktop', async ({ page }) => {
      await page.goto('/invoice?parcelCode=NOPE0000');
      await expect(page.getByText(DEMO.user.email)).toBeVisible();
      const dialog = await expectErrorModal(page, DOUBLE_CHECK);
      // Said once: not again behind the modal, and no support reference for a refusal anyone can put right.
      await expect(page.getByText(DOUBLE_CHECK)).toHaveCount(1);
      await expect(dialog.getByTestId('error-reference')).toHaveCount(0);
      await saveScreenshot(page, 'invoice-unknown-code-modal.png', { fullPage: true });
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(DOUBLE_CHECK)).toHaveCount(1);
      // A way on: type the right code.
      await page.getByLabel('Parcel code').fill('DEMO000002');
      await page.getByRole('button', { name: 'Open invoice' }).click();
      await expect(page).toHaveURL(/\/invoice\?parcelCode=DEMO000002$/);
      await expect(page.getByRole('link', { name: 'Download' })).toHaveAttribute('href', /^blob:/);
    });

    test('looks right on a desktop and on a phone without a PDF viewer @desktop', async ({ page, portal }) => {
      await page.setViewportSize({ width: 1280, height: 1000 });
      await page.goto('/invoice?parcelCode=DEMO000001');
      await expect(page.locator('iframe[title="DEMO000001"]')).toBeVisible();
      // The browser's PDF viewer paints a moment after the frame appears; only the picture needs it.
      if (SCREENSHOTS_WANTED) await page.waitForTimeout(1500);
      await saveScreenshot(page, 'invoice-desktop.png');

      // A browser without a PDF viewer (even a wide one): the pages are drawn instead of an empty frame.
      await page.addInitScript(() =>
        Object.defineProperty(Navigator.prototype, 'pdfViewerEnabled', { get: () => false }),
      );
      await page.setViewportSize({ width: 375, height: 740 });
      await page.reload();
      await expect(page.getByRole('link', { name: 'Open PDF' })).toHaveAttribute('href', /^blob:/);
      await expect(page.getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'DEMO000001.pdf');
      await expect(page.locator('iframe')).toHaveCount(0);
      await expectPagesSpanTheScreen(page);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth).toBeLessThanOrEqual(375);
      await saveScreenshot(page, 'invoice-phone.png', { fullPage: true });
      await portal.expectAccessible(page);

      await page.goto('/invoice?parcelCode=NOPE0000');
      await expectErrorModal(page, DOUBLE_CHECK);
      await saveScreenshot(page, 'invoice-phone-error.png');
    });

    test('on a phone every page is drawn fit-to-width, legibly, in the page’s own scroll @phone', async ({
      page,
      portal,
    }, testInfo) => {
      // Signed in already: the time from the link to the first page drawn is the invoice's alone.
      const started = Date.now();
      await page.goto('/invoice?parcelCode=DEMO000001');
      await expect(page.getByText(DEMO.user.email)).toBeVisible();
      // Generous: PDF.js's worker is parsed on first use, slow on a busy two-core CI machine.
      await expect(page.getByRole('img', { name: 'Invoice DEMO000001, page 1 of 1' })).toBeVisible({ timeout: 25_000 });
      testInfo.annotations.push({ type: 'link to first page drawn (ms)', description: String(Date.now() - started) });
      await expectPagesSpanTheScreen(page);
      await expect(page.getByRole('link', { name: 'Open PDF' })).toHaveAttribute('href', /^blob:/);
      await portal.expectAccessible(page);
    });
  });
});

/** The drawn pages fill the screen's width, sharper than the screen (for pinch-zoom), with no sideways scroll. */
async function expectPagesSpanTheScreen(page: Page) {
  const canvas = page.locator('canvas.invoice-page').first();
  await expect(canvas).toBeVisible();
  const box = (await canvas.boundingBox())!;
  const viewportWidth = page.viewportSize()!.width;
  expect(box.x).toBeLessThanOrEqual(0.5);
  expect(box.width).toBeGreaterThanOrEqual(viewportWidth - 1);
  const pixels = await canvas.evaluate((element: HTMLCanvasElement) => element.width);
  expect(pixels).toBeGreaterThanOrEqual(2 * (viewportWidth - 1));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewportWidth);
}
