import { DEMO, expect, test } from '../fixtures.ts';
import { saveScreenshot } from '../screenshots.ts';
import { ingestInvoices, invoiceTag } from '../invoices-setup.ts';

test.describe('the month in sums on the Invoices page', () => {
  test.describe.configure({ timeout: 150_000 });
  // Signed in already, with the finance user's shared state: the first visit, a passkey set up with the
  // grant's code, is invoices-search.spec.ts's.
  test.use({ locale: 'en-GB', signedInAs: 'finance' });

  test('totals the whole search, charts it by month with a table behind, and shows the EN 16931 check', async ({
    page,
    portal,
    isMobile,
  }, testInfo) => {
    if (!isMobile) await page.setViewportSize({ width: 1366, height: 768 });
    const tag = invoiceTag('MON', testInfo);
    await ingestInvoices(portal, tag, [
      ['A', 'facturx-en16931.pdf', 'application/pdf'],
      ['B', 'xrechnung-ubl.xml', 'application/xml'],
      ['C', 'xrechnung-cii.xml', 'application/xml'],
    ]);

    // The shared state's confirmation lasts half a minute: the page's passkey answers when it has run out.
    await portal.addAuthenticator(page, DEMO.finance);
    await portal.answerPasskeyPrompts(page);
    await page.goto(`/finance?parcel=${tag.toLowerCase()}`);

    const results = page.getByRole(isMobile ? 'list' : 'table', { name: 'Invoices found' });
    await expect(results.getByRole('link', { name: `${tag}-C` })).toBeVisible();
    // The whole search's totals, in the reader's terms: three invoices in euros.
    await expect(page.getByText('All results:')).toBeVisible();
    await expect(page.locator('.search-totals')).toHaveText(/^All results: €[\d,]+\.\d{2} \(3\)$/);
    // The chart: drawn (a canvas), named in words, its figures one button away.
    const chart = page.getByRole('img', { name: /^Invoice amounts by month of issue\. EUR, / });
    await expect(chart).toBeVisible();
    await expect(chart.locator('canvas').first()).toBeVisible();
    if (!isMobile) {
      // A finance density: 40 px rows, 20 px boxes, ten rows fit under what stands above them at 768 px.
      const row = results.getByRole('row').nth(1);
      const rowBox = (await row.boundingBox())!;
      expect(Math.round(rowBox.height)).toBe(40);
      const box = (await row.getByRole('checkbox').boundingBox())!;
      expect(Math.round(box.width)).toBe(20);
      expect(rowBox.y + 10 * rowBox.height).toBeLessThanOrEqual(768);
      await expect(results.getByRole('columnheader', { name: 'Validation' })).toBeVisible();
    }
    // The stored check: each e-invoice's badge says one of the three outcomes.
    const item = isMobile
      ? results.getByRole('listitem').filter({ has: page.getByRole('link', { name: `${tag}-B` }) })
      : results.getByRole('row').filter({ has: page.getByRole('link', { name: `${tag}-B` }) });
    await expect(item.locator('.status-badge').filter({ hasText: /^(Valid|Warnings|Invalid)$/ })).toHaveCount(1);
    await portal.expectAccessible(page);
    await saveScreenshot(page, `invoices-month-${testInfo.project.name}.png`, { fullPage: true });

    await page.getByRole('button', { name: 'Show as table' }).click();
    const table = page.getByRole('table', { name: 'Invoice amounts by month of issue, per currency' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('row')).not.toHaveCount(1);
    await portal.expectAccessible(page);
    await saveScreenshot(page, `invoices-month-table-${testInfo.project.name}.png`, { fullPage: true });

    // Ordered by amount: said to be per currency.
    await page.getByLabel('Order').selectOption({ label: 'Amount, largest first, per currency' });
    await expect(page.getByText('Grouped by currency (A to Z), then by amount.')).toBeVisible();
  });
});
