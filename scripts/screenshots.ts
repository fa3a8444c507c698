/**
 * `npm run screenshots [-- <folder>]`: every screen and state a person meets, at a laptop's size (1366×768) and a
 * phone's (390×844, touch), as PNGs in <folder> (default: a fresh temporary folder), against the real stack on
 * free ports with throwaway data. For looking at, not asserting: the e2e tests assert.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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

const outDir = path.resolve(process.argv[2] ?? (await mkdtemp(path.join(os.tmpdir(), 'portal-shots-'))));
await mkdir(outDir, { recursive: true });
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-shots-data-'));
if (!process.env.SKIP_BUILD) await buildWeb();
const stack = await startStack({
  port: Number(process.env.PORT ?? (await findFreePort())),
  emulatorPort: Number(process.env.AUTH_EMULATOR_PORT ?? (await findFreePort())),
  dataDir,
  env: {
    LOG_LEVEL: 'warn',
    SUPPORT_EMAIL: 'it-support@example.com',
    SUPPORT_PHONE: '+44 20 7946 0000',
    // The login screen as npm start's demo shows it, with its single sign-on button.
    SSO_PROVIDER_ID: 'oidc.demo-company',
    SSO_BUTTON_LABEL: 'Demo Company',
  },
  log: () => {},
});

const samples = eInvoiceSamplesDir();
const admin = demoAccount('admin@example.com');
const { idToken: adminToken } = await identityToolkit(stack.emulator.url).signIn(admin.email, admin.password!);
// Storing invoices is an admin call: this sign-in confirms with a passkey first, as the browser does. The demo
// admin thus has a passkey before the screens are shot: the admin page asks for it (the first visit's set-up
// screen is among the passkey spec's screenshots). The script's sign-in, confirmed, gives each page a passkey.
const adminSession = httpPortalSession(stack.url, adminToken);
const adminCall = adminSession.call;
await enrollPasskey(adminCall, createSoftwareAuthenticator({ origin: stack.url }), {
  enrollmentCode: stack.demoAdminEnrollment?.code,
});
// The finance user's Invoices page asks for a passkey too: one set up the same way, with the seed's code.
const finance = demoAccount('finance@example.com');
const financeCall = httpPortalSession(
  stack.url,
  (await identityToolkit(stack.emulator.url).signIn(finance.email, finance.password!)).idToken,
).call;
await enrollPasskey(financeCall, createSoftwareAuthenticator({ origin: stack.url }), {
  enrollmentCode: stack.demoFinanceEnrollment?.code,
});
async function ingest(code: string, body: Uint8Array, type: string) {
  const response = await fetch(`${stack.url}/api/invoices/${code}`, {
    method: 'PUT',
    headers: { ...adminSession.headers(), 'content-type': type },
    body: new Uint8Array(body),
  });
  if (!response.ok) throw new Error(`could not store ${code}: ${response.status} ${await response.text()}`);
}
await ingest('SHOT-FX-1', await readFile(path.join(samples, 'facturx-en16931.pdf')), 'application/pdf');
await ingest('SHOT-XML-1', await readFile(path.join(samples, 'xrechnung-ubl.xml')), 'application/xml');
const peppol = await readFile(path.join(samples, 'peppol-invoice.xml'), 'utf8');
await ingest('SHOT-IBAN-1', Buffer.from(peppol), 'application/xml');
const rerouted = peppol.replace('<cbc:ID>IBAN32423940</cbc:ID>', '<cbc:ID>GB33BUKB20201555555555</cbc:ID>');
await ingest('SHOT-IBAN-1', Buffer.from(rerouted), 'application/xml');
// An e-invoice whose totals no longer add up (the sum of its lines and the amount due changed): flagged, with
// its EN 16931 findings, as EINVOICE_INVALID's default keeps it.
const xrechnung = await readFile(path.join(samples, 'xrechnung-ubl.xml'), 'utf8');
const broken = xrechnung
  .replace(
    '<cbc:LineExtensionAmount currencyID="EUR">314.86</cbc:LineExtensionAmount>',
    '<cbc:LineExtensionAmount currencyID="EUR">341.86</cbc:LineExtensionAmount>',
  )
  .replace(
    '<cbc:PayableAmount currencyID="EUR">336.9</cbc:PayableAmount>',
    '<cbc:PayableAmount currencyID="EUR">363.9</cbc:PayableAmount>',
  );
await ingest('SHOT-INVALID-1', Buffer.from(broken), 'application/xml');

const sizes = {
  desktop: { viewport: { width: 1366, height: 768 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

async function signIn(page: Page, email: Parameters<typeof demoAccount>[0]) {
  const account = demoAccount(email);
  await page.getByLabel('Email address').fill(account.email);
  await page.getByLabel('Password').fill(account.password!);
  await page.getByRole('button', { name: 'Submit' }).click();
}

/**
 * A virtual authenticator (Chromium's DevTools WebAuthn domain) stands in for a fingerprint reader, holding a
 * passkey of the demo admin's own, set up through the API for this page.
 */
async function fingerprintReader(page: Page) {
  await addPagePasskey(await addVirtualAuthenticator(page), adminCall, stack.url);
}

/** The header's Sign Out (a screen may offer its own, as the not-allowed one does). */
const signOut = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click();

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
}

async function shoot(browser: Browser, size: keyof typeof sizes) {
  const context = await browser.newContext(sizes[size]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  const snap = async (name: string) => {
    await settle(page);
    await page.screenshot({ path: path.join(outDir, `${size}-${name}.png`), fullPage: true });
  };

  await page.goto(`${stack.url}/login`);
  await snap('login');
  await page.getByRole('button', { name: 'Submit' }).click();
  await snap('login-empty');

  await page.goto(`${stack.url}/invoice?parcelCode=DEMO000001`);
  await signIn(page, 'user@example.com');
  await page.getByRole('link', { name: 'Download' }).and(page.locator('[href^="blob:"]')).waitFor();
  await page.waitForTimeout(1500);
  await snap('invoice');

  // E-invoices, stored through the ingestion call: a Factur-X PDF, an XML-only XRechnung, and a replacement
  // that changed the bank account (the panel's warning).
  for (const [code, label] of [
    ['SHOT-FX-1', 'invoice-facturx'],
    ['SHOT-XML-1', 'invoice-xml-only'],
    ['SHOT-IBAN-1', 'invoice-bank-details-changed'],
  ] as const) {
    await page.goto(`${stack.url}/invoice?parcelCode=${code}`);
    await page.getByRole('complementary').waitFor();
    await page.getByRole('link', { name: 'Download' }).and(page.locator('[href^="blob:"]')).waitFor();
    await page.waitForTimeout(1500);
    await snap(label);
  }

  // The invalid e-invoice: its calm badge beside the facts, then its findings one click away.
  await page.goto(`${stack.url}/invoice?parcelCode=SHOT-INVALID-1`);
  await page.getByRole('complementary').waitFor();
  await page.getByRole('link', { name: 'Download' }).and(page.locator('[href^="blob:"]')).waitFor();
  await page.waitForTimeout(1500);
  await snap('invoice-validation-badge');
  await page.getByRole('button', { name: 'Show findings' }).click();
  await snap('invoice-validation-report');

  await page.goto(`${stack.url}/invoice?parcelCode=NOPE0000`);
  await page.getByRole('dialog', { name: 'Error' }).waitFor();
  await snap('invoice-error-modal');
  await page.getByRole('button', { name: 'Continue' }).click();
  await snap('invoice-error-after-continue');

  await page.goto(`${stack.url}/no/such/page`);
  await snap('not-found');

  await signOut(page);
  await page.goto(`${stack.url}/invoice?parcelCode=DEMO000001`);
  await signIn(page, 'outsider@example.com');
  await page.getByRole('dialog', { name: 'Error' }).waitFor();
  await page.getByRole('button', { name: 'Continue' }).click();
  await snap('invoice-not-authorized');
  await signOut(page);

  // The finance role's Invoices page: every invoice stored above, then a search with two of them ticked.
  await addPagePasskey(await addVirtualAuthenticator(page), financeCall, stack.url);
  await page.goto(`${stack.url}/finance`);
  await signIn(page, 'finance@example.com');
  await page.getByRole('button', { name: 'Use passkey' }).click();
  await page.getByRole('link', { name: 'SHOT-FX-1' }).waitFor();
  await snap('invoices');
  if (size === 'phone') await page.getByText('Search and filters', { exact: true }).click();
  await page.getByLabel(/^Parcel code/).fill('shot');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/parcel=shot/);
  await page.getByRole('link', { name: 'DEMO000001' }).waitFor({ state: 'detached' });
  for (const code of ['SHOT-FX-1', 'SHOT-XML-1']) await page.getByRole('checkbox', { name: `Select ${code}` }).check();
  await snap('invoices-searched-selected');
  await signOut(page);

  await fingerprintReader(page);
  await page.goto(`${stack.url}/admin`);
  await signIn(page, 'admin@example.com');
  const confirm = page.getByRole('button', { name: 'Use passkey' });
  await confirm.waitFor();
  await snap('admin-passkey-every-day');
  await confirm.click();
  await page.getByRole('table').waitFor();
  await snap('admin');
  for (const email of ['user@example.com', 'invited@example.com'])
    await page.getByRole('checkbox', { name: `Select ${email}` }).check();
  await snap('admin-selection');
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByRole('dialog', { name: 'Delete 2 users?' }).waitFor();
  await snap('admin-bulk-delete-confirm');
  await page.getByRole('dialog', { name: 'Delete 2 users?' }).getByRole('button', { name: 'No' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Add User' }).click();
  const addModal = page.getByRole('dialog', { name: 'Add User' });
  // Already on the list: said under the field, not in a second modal.
  await addModal.getByLabel('Email address').fill('user@example.com');
  await addModal.getByRole('button', { name: 'Submit' }).click();
  await addModal.getByText('user@example.com is already on the list.').waitFor();
  await snap('admin-add-already-listed');
  // The demo outsider has a sign-in account the portal did not make: refused, then offered the take-over.
  await addModal.getByLabel('Email address').fill('outsider@example.com');
  await addModal.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('dialog', { name: 'Error' }).waitFor();
  await snap('admin-add-foreign-account');
  await page.getByRole('button', { name: 'Continue' }).click();
  await addModal.getByRole('checkbox', { name: /Take over the existing account/ }).waitFor();
  await snap('admin-add-take-over-offered');

  await context.close();
  return problems;
}

/**
 * Deletes while the identity provider is stopped, at both sizes: the notice, and the audit tab's pending
 * clean-ups. Last, since the emulator stays stopped; the admins signed in before, so the outage grace
 * keeps their sessions.
 */
async function shootPendingCleanups(browser: Browser) {
  const pages: [keyof typeof sizes, Page][] = [];
  for (const size of Object.keys(sizes) as (keyof typeof sizes)[]) {
    const page = await (await browser.newContext(sizes[size])).newPage();
    await fingerprintReader(page);
    await page.goto(`${stack.url}/admin`);
    await signIn(page, 'admin@example.com');
    await page.getByRole('button', { name: 'Use passkey' }).click();
    await page.getByRole('table').waitFor();
    pages.push([size, page]);
  }
  await stack.emulator.stop();
  for (const [[size, page], email] of pages.map(
    (entry, i) => [entry, ['user@example.com', 'invited@example.com'][i]!] as const,
  )) {
    const snap = async (name: string) => {
      await settle(page);
      await page.screenshot({ path: path.join(outDir, `${size}-${name}.png`), fullPage: true });
    };
    await page.getByRole('button', { name: `Delete ${email}` }).click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Yes' }).click();
    await page.getByRole('status').filter({ hasText: 'can no longer sign in' }).waitFor();
    await snap('admin-deleted-cleanup-pending');
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByRole('alert').filter({ hasText: 'pending' }).waitFor();
    await snap('admin-audit-cleanups-pending');
  }
}

const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
try {
  for (const size of Object.keys(sizes) as (keyof typeof sizes)[]) {
    const problems = await shoot(browser, size);
    process.stdout.write(
      `${size}: ${problems.length ? `console:\n  ${problems.join('\n  ')}` : 'no console warnings or errors'}\n`,
    );
  }
  await shootPendingCleanups(browser);
  process.stdout.write(`Screenshots in ${outDir}\n`);
} finally {
  await browser.close();
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
