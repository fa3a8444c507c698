import type { Page, TestInfo } from '@playwright/test';
import { identityToolkit } from '@portal/dev-stack';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { expect, type Portal } from './fixtures.ts';

/**
 * Parcel codes of this test's project and worker (`FINDESKTO0-A`), so parallel runs of the Invoices page's
 * tests each search only their own invoices.
 */
export function invoiceTag(prefix: string, testInfo: TestInfo): string {
  return `${prefix}${testInfo.project.name.replace(/\W/g, '').slice(0, 6).toUpperCase()}${testInfo.parallelIndex}`;
}

/** Stores each public sample under `<tag>-<suffix>`, as the ingestion client sends it. */
export async function ingestInvoices(
  portal: Portal,
  tag: string,
  files: [suffix: string, file: string, type: string][],
) {
  for (const [suffix, file, type] of files) {
    const body = new Uint8Array(await readEInvoiceFixture(file));
    const stored = await portal.adminUpload('PUT', `/api/invoices/${tag}-${suffix}`, body, type);
    expect([200, 201]).toContain(stored.status);
  }
}

/**
 * A finance user of this test's own, given the role by the demo admin, with the enrollment code the grant
 * answered with (handed over in person, as it were) and a password.
 */
async function newFinanceUser(portal: Portal, emailPrefix: string) {
  const email = `${emailPrefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'finance-password-1';
  expect((await portal.adminApi('POST', `/api/users/${email}`)).status).toBe(201);
  const granted = await portal.adminApi('PATCH', `/api/users/${email}`, { finance: true });
  expect(granted.status).toBe(200);
  const { enrollment } = granted.body as { enrollment: { code: string } };
  await identityToolkit(portal.emulatorUrl).setPassword(portal.projectId, email, password);
  return { email, password, enrollmentCode: enrollment.code };
}

/**
 * A new finance user signed in on `path` of the Invoices page, their first visit: the page's device makes
 * the passkey with the code from the grant before any invoice shows, and answers a later "Confirm it's you".
 */
export async function signInNewFinanceUser(page: Page, portal: Portal, path: string, emailPrefix: string) {
  const finance = await newFinanceUser(portal, emailPrefix);
  await portal.addAuthenticator(page);
  await portal.answerPasskeyPrompts(page);
  await page.goto(path);
  await portal.signIn(page, finance);
  await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
  const setUp = page.getByRole('region', { name: 'Set up a passkey' });
  await expect(setUp).toContainText('This page opens every invoice');
  await setUp.getByLabel('Enrollment code').fill(finance.enrollmentCode);
  await setUp.getByRole('button', { name: 'Set up a passkey' }).click();
  await expect(setUp).toBeHidden();
  return finance;
}
