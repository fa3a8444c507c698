import { readFile } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import { expect, test } from '../fixtures.ts';
import { ingestInvoices, invoiceTag, signInNewFinanceUser } from '../invoices-setup.ts';

/** The names of a ZIP's entries and the CSV's text, from its central directory (a small, plain ZIP). */
function readZip(zip: Buffer) {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  let csv = '';
  for (let index = 0; index < zip.readUInt16LE(end + 10); index++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    names.push(name);
    if (name === 'invoices.csv') {
      const local = zip.readUInt32LE(at + 42);
      const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const raw = zip.subarray(data, data + zip.readUInt32LE(at + 20));
      csv = (zip.readUInt16LE(at + 10) === 8 ? inflateRawSync(raw) : raw).toString('utf8');
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return { names, csv };
}

test.describe('the Invoices page of a finance user', () => {
  test.describe.configure({ timeout: 120_000 });
  test.use({ locale: 'en-GB' });

  test('searches by parcel code, opens an invoice, and downloads the results as one ZIP', async ({
    page,
    portal,
    isMobile,
  }, testInfo) => {
    const tag = invoiceTag('FIN', testInfo);
    await ingestInvoices(portal, tag, [
      ['A', 'facturx-en16931.pdf', 'application/pdf'],
      ['B', 'xrechnung-ubl.xml', 'application/xml'],
    ]);
    // The chart's code is held back while the person types: its arrival once hid the whole page behind the app's
    // spinner, and what was typed in the meantime was lost.
    let releaseChart = () => {};
    const chartHeld = new Promise<void>((resolve) => (releaseChart = resolve));
    await page.route(/\/assets\/MonthChart-[^/]*\.js$/, async (route) => {
      await chartHeld;
      await route.continue();
    });
    await signInNewFinanceUser(page, portal, '/finance', 'e2e-finance');
    await expect(page.getByRole('link', { name: 'Invoices', exact: true })).toBeVisible();
    await expect(page.getByText(/^Invoice amounts by month of issue\./)).toBeVisible();
    // A phone folds the filters under one line, so the first invoice shows on arrival.
    if (isMobile) await page.getByText('Search and filters', { exact: true }).click();
    await page.getByLabel(/^Parcel code/).fill(tag.toLowerCase());
    releaseChart();
    await expect(page.getByRole('img', { name: /^Invoice amounts by month of issue\./ })).toBeVisible();
    await expect(page.getByLabel(/^Parcel code/)).toHaveValue(tag.toLowerCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]parcel=${tag.toLowerCase()}`));
    const results = page.getByRole(isMobile ? 'list' : 'table', { name: 'Invoices found' });
    await expect(results.getByRole('link', { name: `${tag}-A` })).toBeVisible();
    await expect(results.getByRole('link', { name: `${tag}-B` })).toBeVisible();
    await expect(page.getByText('2 invoices', { exact: true })).toBeVisible();
    await portal.expectAccessible(page);

    // Reload keeps the search: it lives in the address.
    await page.reload();
    await expect(results.getByRole('link', { name: `${tag}-B` })).toBeVisible();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download all 2 results (ZIP)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^invoices-\d{4}-\d{2}-\d{2}\.zip$/);
    const zip = readZip(await readFile((await download.path())!));
    expect(zip.names.sort()).toEqual(
      [
        'invoices.csv',
        `${tag}-A/${tag}-A.pdf`,
        `${tag}-A/${tag}-A.xml`,
        `${tag}-B/${tag}-B.pdf`,
        `${tag}-B/${tag}-B.xml`,
      ].sort(),
    );
    expect(zip.csv).toContain(`${tag}-A,facturx,`);
    await expect(page.getByText('The ZIP with 2 invoices is in your downloads.')).toBeVisible();

    // Each row opens the spec's invoice screen.
    await results.getByRole('link', { name: `${tag}-A` }).click();
    await expect(page).toHaveURL(new RegExp(`/invoice\\?parcelCode=${tag}-A$`));
    await expect(page.getByRole('complementary', { name: 'Invoice details' })).toBeVisible();
  });
});
