import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Portal } from '../fixtures.ts';
import { saveScreenshot } from '../screenshots.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

const fixture = readEInvoiceFixture;

/** Stored through the real ingestion call, as the carrier's ingestion service (or an admin) sends them. */
async function ingest(portal: Portal, parcelCode: string, body: Buffer, type: string) {
  const response = await portal.adminUpload('PUT', `/api/invoices/${parcelCode}`, new Uint8Array(body), type);
  const answer = await response.text();
  expect([200, 201], `the upload's answer: ${answer}`).toContain(response.status);
  return JSON.parse(answer) as { format: string; status: string };
}

const FACTUR_X = 'EINV-FX-0001';
const XML_ONLY = 'EINV-XML-0001';
/**
 * A new one each time the describe's `beforeAll` runs: the warning needs the original, then the replacement,
 * in that order, and nothing before them. A worker's index is no such name: a retry, or a worker started
 * after another test failed, runs the `beforeAll` again under the same index, and each earlier pair of
 * uploads had left a warning of its own on that parcel code.
 */
let replacedCode = '';

test.describe('an e-invoice on the invoice screen', () => {
  // Each test loads the invoice and checks several things: more than the suite's default 30 s
  // on a machine that is busy with other work.
  test.describe.configure({ timeout: 90_000 });
  // Money is written as the reader's locale writes it: a British reader here, whatever the machine's language.
  // Signed in already, with the reader's shared state: the way in is invoice.spec.ts's.
  test.use({ locale: 'en-GB', signedInAs: 'reader' });

  test.beforeAll(async ({ portal }) => {
    replacedCode = `EINV-IBAN-${randomUUID().slice(0, 8)}`;
    expect((await ingest(portal, FACTUR_X, await fixture('facturx-en16931.pdf'), 'application/pdf')).format).toBe(
      'facturx',
    );
    expect((await ingest(portal, XML_ONLY, await fixture('xrechnung-ubl.xml'), 'application/xml')).format).toBe('ubl');
    // A replacement that sends the money elsewhere.
    const original = (await fixture('peppol-invoice.xml')).toString('utf8');
    await ingest(portal, replacedCode, Buffer.from(original), 'application/xml');
    const rerouted = original.replace('<cbc:ID>IBAN32423940</cbc:ID>', '<cbc:ID>GB33BUKB20201555555555</cbc:ID>');
    expect((await ingest(portal, replacedCode, Buffer.from(rerouted), 'application/xml')).status).toBe('replaced');
  });

  test('a Factur-X invoice: the facts beside the spec frame (after the pages on a phone), and its XML', async ({
    page,
    portal,
    isMobile,
  }, testInfo) => {
    await page.goto(`/invoice?parcelCode=${FACTUR_X}`);
    const panel = page.getByRole('complementary', { name: 'Invoice details' });
    await expect(panel).toBeVisible();
    await expect(panel.getByText('Factur-X EN 16931')).toBeVisible();
    await expect(panel.locator('dt:has-text("Number") + dd')).toHaveText('471102');
    await expect(panel.locator('dt:has-text("Issued") + dd')).toHaveText('15 Nov 2024');
    await expect(panel.locator('dt:has-text("Amount due") + dd')).toHaveText('€529.87');
    await expect(panel.locator('dt:has-text("Seller") + dd')).toHaveText('Lieferant GmbH \u2192 Kunden AG Mitte');

    const panelBox = (await panel.boundingBox())!;
    if (isMobile) {
      // The first of however many pages the carrier's PDF has: the invoice comes first on a phone, the facts after.
      const firstPage = page.getByRole('img', { name: new RegExp(`^Invoice ${FACTUR_X}, page 1 of \\d+$`) });
      await expect(firstPage).toBeVisible({ timeout: 60_000 });
      const pageBox = (await firstPage.boundingBox())!;
      expect(pageBox.y + pageBox.height).toBeLessThanOrEqual((await panel.boundingBox())!.y);
    } else {
      const frame = page.locator(`iframe[title="${FACTUR_X}"]`);
      await expect(frame).toHaveAttribute('src', /^blob:/);
      const frameBox = (await frame.boundingBox())!;
      expect(frameBox.height).toBe(800);
      expect(panelBox.x).toBeGreaterThanOrEqual(frameBox.x + frameBox.width);
    }
    await portal.expectAccessible(page);
    await saveScreenshot(page, `facturx-${testInfo.project.name}.png`, { fullPage: true });

    if (isMobile) {
      // A 44 px target on a phone, like every control on a person's path.
      const xmlButton = (await panel.getByRole('button', { name: 'Download XML' }).boundingBox())!;
      expect(xmlButton.height).toBeGreaterThanOrEqual(44);
    }
    const saved = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download XML' }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toBe(`${FACTUR_X}.xml`);
    const xml = await readFile((await download.path())!, 'utf8');
    expect(xml).toContain('<ram:ID>471102</ram:ID>');
  });

  test('an XML-only XRechnung: shown as a rendering of the XML, labelled as one', async ({
    page,
    portal,
    isMobile,
  }, testInfo) => {
    await page.goto(`/invoice?parcelCode=${XML_ONLY}`);
    const panel = page.getByRole('complementary', { name: 'Invoice details' });
    await expect(panel.getByText('XRechnung 3.0')).toBeVisible();
    await expect(panel.getByText(/rendering of this XML invoice; the XML is the original/)).toBeVisible();
    await expect(panel.locator('dt:has-text("IBAN") + dd')).toHaveText('DE79 0000 0000 1234 5678 90');
    if (isMobile) {
      await expect(page.getByRole('img', { name: `Invoice ${XML_ONLY}, page 1 of 1` })).toBeVisible({
        timeout: 25_000,
      });
    } else {
      await expect(page.locator(`iframe[title="${XML_ONLY}"]`)).toHaveAttribute('src', /^blob:/);
    }
    await expect(page.getByRole('link', { name: 'Download' })).toHaveAttribute('download', `${XML_ONLY}.pdf`);
    await portal.expectAccessible(page);
    await saveScreenshot(page, `xml-only-${testInfo.project.name}.png`, { fullPage: true });
  });

  test('a replacement with other bank details warns whoever opens it @desktop', async ({ page, portal }, testInfo) => {
    await page.goto(`/invoice?parcelCode=${replacedCode}`);
    const panel = page.getByRole('complementary', { name: 'Invoice details' });
    const today = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(
      new Date(),
    );
    // One block for every waiting warning, its kinds as badges, the change told once.
    const warning = panel.getByRole('region', { name: 'Check before paying' });
    await expect(warning).toContainText(`Bank details changed on ${today}.`);
    await expect(warning).toBeVisible();
    // The old account and the new one, whole, the amount, and what to do before paying.
    await expect(warning).toContainText(/Was IBAN3242\s?3940/);
    await expect(warning).toContainText('Now GB33 BUKB 2020 1555 5555 55');
    await expect(warning).toContainText(/Amount\s*€1,656\.25 \(unchanged\)/);
    await expect(warning).toContainText('call the seller on a phone number you already know');
    await expect(panel.getByText(/Amount changed/)).toHaveCount(0);
    await portal.expectAccessible(page);
    await saveScreenshot(page, `bank-details-${testInfo.project.name}.png`, { fullPage: true });
  });

  test('a plain PDF keeps the frame alone, as the spec draws it @desktop', async ({ page }) => {
    const factsAnswered = page.waitForResponse((response) => response.url().endsWith('/api/invoices/DEMO000001'));
    await page.goto('/invoice?parcelCode=DEMO000001');
    const frame = page.locator('iframe[title="DEMO000001"]');
    await expect(frame).toHaveAttribute('src', /^blob:/);
    expect((await factsAnswered).status()).toBe(200);
    await expect(page.getByRole('complementary')).toHaveCount(0);
    const main = (await page.locator('main.container').boundingBox())!;
    const frameBox = (await frame.boundingBox())!;
    // Full width: the container's content box (its padding is Bootstrap's gutter of 12px a side).
    expect(frameBox.width).toBeGreaterThanOrEqual(main.width - 24 - 1);
  });
});
