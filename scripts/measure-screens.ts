/**
 * `npm run measure:screens [-- <folder>]`: the figures the screens are held to, measured in Chromium against the
 * real stack on free ports with throwaway data (30 added users, their audit entries and the admin's passkey
 * confirmations), printed as JSON, with a screenshot of each measured screen in <folder>:
 * - the height of each audit entry on a phone (390×844);
 * - how many user rows are in view on arrival on a laptop (1366×768);
 * - the smallest control on a person's path on a phone (login, invoice, parcel-code form, error modal);
 * - the admin header's height on a phone;
 * - where the row "⋯" menu opens, relative to its button, over ten openings, each the first after a page load.
 * For comparing builds, not asserting: the e2e tests assert.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import {
  buildWeb,
  CHROMIUM_ARGS,
  chromiumExecutable,
  demoAccount,
  findFreePort,
  identityToolkit,
  startStack,
} from '@portal/dev-stack';
import {
  addPagePasskey,
  addVirtualAuthenticator,
  createSoftwareAuthenticator,
  enrollPasskey,
  httpPortalSession,
} from '@portal/dev-stack/passkeys';
import { eInvoiceSamplesDir } from '@portal/dev-stack/e-invoice-samples';

const outDir = path.resolve(process.argv[2] ?? (await mkdtemp(path.join(os.tmpdir(), 'portal-measure-'))));
await mkdir(outDir, { recursive: true });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-measure-data-'));
if (!process.env.SKIP_BUILD) await buildWeb();
const stack = await startStack({
  port: await findFreePort(),
  emulatorPort: await findFreePort(),
  dataDir,
  // A busy machine reads an e-invoice slower than the production budget allows.
  env: { LOG_LEVEL: 'warn', INVOICE_READ_TIMEOUT_MS: '60000' },
  log: (line) => {
    if (process.env.MEASURE_VERBOSE) process.stderr.write(`api: ${line}\n`);
  },
});
const step = (what: string) => process.stderr.write(`${new Date().toISOString()} ${what}\n`);
step('stack started');

const admin = demoAccount('admin@example.com');
const { idToken } = await identityToolkit(stack.emulator.url).signIn(admin.email, admin.password!);
const session = httpPortalSession(stack.url, idToken);
await enrollPasskey(session.call, createSoftwareAuthenticator({ origin: stack.url }), {
  enrollmentCode: stack.demoAdminEnrollment?.code,
});
for (let i = 1; i <= 30; i++) {
  const { status } = await session.call('POST', `/api/users/person${String(i).padStart(2, '0')}@example.com`);
  if (status >= 300) throw new Error(`could not add a user: ${status}`);
}
step('users added');
const samples = eInvoiceSamplesDir();
// Reading an e-invoice has a time budget, which a busy machine can overrun: asked again, a few times.
for (let attempt = 1; ; attempt++) {
  const upload = await fetch(`${stack.url}/api/invoices/MEASURE-FX-1`, {
    method: 'PUT',
    headers: { ...session.headers(), 'content-type': 'application/pdf' },
    body: new Uint8Array(await readFile(path.join(samples, 'facturx-en16931.pdf'))),
  }).catch((error: unknown) => error as Error);
  if (!(upload instanceof Error) && upload.ok) break;
  const why = upload instanceof Error ? upload.message : `${upload.status} ${await upload.text()}`;
  if (attempt === 5) throw new Error(`could not store the sample invoice: ${why}`);
  step(`storing the sample invoice failed (${why}); again`);
}

const sizes = {
  laptop: { viewport: { width: 1366, height: 768 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

async function signIn(page: Page, email: Parameters<typeof demoAccount>[0]) {
  const account = demoAccount(email);
  await page.getByLabel('Email address').fill(account.email);
  await page.getByLabel('Password').fill(account.password!);
  await page.getByRole('button', { name: 'Submit' }).click();
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
}

/** The admin page after sign-in, the passkey confirmed whenever it asks. */
async function adminPage(browser: Browser, size: keyof typeof sizes) {
  const page = await (await browser.newContext(sizes[size])).newPage();
  await addPagePasskey(await addVirtualAuthenticator(page), session.call, stack.url);
  await page.goto(`${stack.url}/admin`);
  await signIn(page, 'admin@example.com');
  await confirmIfAsked(page);
  return page;
}

async function confirmIfAsked(page: Page) {
  const confirm = page.getByRole('button', { name: 'Use passkey' });
  const table = page.getByRole('table', { name: 'Allowed users' });
  await confirm.or(table).first().waitFor();
  if (await confirm.isVisible()) await confirm.click();
  await table.waitFor();
}

/** Every visible control's size, smallest first. */
async function controlSizes(root: Page | Locator, where: string) {
  const sizes = await root
    .locator('input:not([type=hidden]), button, a[href], select, textarea, [role=button]')
    .evaluateAll((elements) =>
      elements
        .filter((element) => (element as HTMLElement).offsetParent !== null)
        .map((element) => {
          const box = element.getBoundingClientRect();
          const name =
            element.getAttribute('aria-label') ||
            (element as HTMLElement).innerText?.trim() ||
            element.id ||
            element.tagName.toLowerCase();
          return { name, width: Math.round(box.width), height: Math.round(box.height) };
        }),
    );
  return sizes
    .map((size) => ({ where, ...size }))
    .sort((a, b) => Math.min(a.width, a.height) - Math.min(b.width, b.height));
}

const results: Record<string, unknown> = {};
const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
try {
  step('invoice stored');
  // A person's path on a phone.
  {
    const page = await (await browser.newContext(sizes.phone)).newPage();
    const controls = [];
    await page.goto(`${stack.url}/invoice?parcelCode=MEASURE-FX-1`);
    await page.getByLabel('Email address').waitFor();
    await settle(page);
    controls.push(...(await controlSizes(page, 'login')));
    await page.screenshot({ path: path.join(outDir, 'phone-login.png'), fullPage: true });
    await signIn(page, 'user@example.com');
    await page.getByRole('link', { name: 'Download' }).and(page.locator('[href^="blob:"]')).waitFor();
    await settle(page);
    controls.push(...(await controlSizes(page, 'invoice')));
    await page.screenshot({ path: path.join(outDir, 'phone-invoice.png'), fullPage: true });
    await page.goto(`${stack.url}/invoice?parcelCode=NOPE0000`);
    await page.getByRole('dialog', { name: 'Error' }).waitFor();
    await settle(page);
    controls.push(...(await controlSizes(page.getByRole('dialog'), 'error modal')));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await settle(page);
    results.focusAfterErrorModal = await page.evaluate(() => {
      const element = document.activeElement;
      return element ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}` : null;
    });
    controls.push(...(await controlSizes(page, 'parcel-code form')));
    await page.screenshot({ path: path.join(outDir, 'phone-invoice-error-after.png'), fullPage: true });
    controls.sort((a, b) => Math.min(a.width, a.height) - Math.min(b.width, b.height));
    results.phonePathSmallest = controls.slice(0, 6);
    await page.context().close();
  }

  step('phone path measured');
  // The admin page on a phone: header, audit entries.
  {
    const page = await adminPage(browser, 'phone');
    await settle(page);
    results.phoneHeaderHeight = Math.round((await page.locator('.app-header').boundingBox())!.height);
    await page.screenshot({ path: path.join(outDir, 'phone-admin.png') });
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const entries = page.getByRole('table', { name: 'Audit entries' }).locator('tbody tr');
    await entries.first().waitFor();
    await settle(page);
    const heights = await entries.evaluateAll((rows) =>
      rows.map((row) => Math.round(row.getBoundingClientRect().height)),
    );
    results.phoneAuditEntries = {
      count: heights.length,
      min: Math.min(...heights),
      median: heights.sort((a, b) => a - b)[Math.floor(heights.length / 2)],
      max: Math.max(...heights),
      total: heights.reduce((sum, height) => sum + height, 0),
    };
    await page.screenshot({ path: path.join(outDir, 'phone-audit.png'), fullPage: true });
    await page.reload();
    await page
      .getByRole('tab', { name: 'User list' })
      .or(page.getByRole('button', { name: 'Use passkey' }))
      .first()
      .waitFor();
    if (await page.getByRole('button', { name: 'Use passkey' }).isVisible())
      await page.getByRole('button', { name: 'Use passkey' }).click();
    await page.getByRole('tab', { selected: true }).waitFor();
    results.phoneTabAfterReload = await page.getByRole('tab', { selected: true }).innerText();
    await page.context().close();
  }

  step('phone admin measured');
  // The admin page on a laptop: rows on arrival, the row menu over ten page loads.
  {
    const page = await adminPage(browser, 'laptop');
    await settle(page);
    const inView = async () =>
      page
        .getByRole('table', { name: 'Allowed users' })
        .locator('tbody tr')
        .evaluateAll((rows) => rows.filter((row) => row.getBoundingClientRect().bottom <= window.innerHeight).length);
    results.laptopRowsOnArrival = await inView();
    await page.screenshot({ path: path.join(outDir, 'laptop-admin.png') });
    const openings = [];
    for (let i = 0; i < 10; i++) {
      if (i > 0) {
        await page.reload();
        await confirmIfAsked(page);
        await settle(page);
      }
      const toggle = page.getByRole('button', { name: 'More actions for user@example.com' });
      await toggle.click();
      const menu = page.locator('.dropdown-menu.show');
      await menu.waitFor();
      await settle(page);
      const t = (await toggle.boundingBox())!;
      const m = (await menu.boundingBox())!;
      openings.push({
        rightEdgeOffset: Math.round(m.x + m.width - (t.x + t.width)),
        // Below the button (Popper's 2 px offset), or above it where there is no room below.
        gapBelowButton: Math.round(m.y - (t.y + t.height)),
        gapAboveButton: Math.round(t.y - (m.y + m.height)),
        menuTop: Math.round(m.y),
      });
      if (i === 0) await page.screenshot({ path: path.join(outDir, 'laptop-row-menu.png') });
      await page.keyboard.press('Escape');
    }
    results.laptopRowMenu = openings;
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByRole('table', { name: 'Audit entries' }).locator('tbody tr').first().waitFor();
    await settle(page);
    await page.screenshot({ path: path.join(outDir, 'laptop-audit.png') });
    await page.context().close();
  }
  process.stdout.write(`${JSON.stringify(results, null, 2)}\nScreenshots in ${outDir}\n`);
} finally {
  await browser.close();
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
