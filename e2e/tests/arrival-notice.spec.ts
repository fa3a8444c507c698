import type { CaughtMail } from '@portal/dev-stack';
import { DEMO, expect, test } from '../fixtures.ts';

/** A tiny PDF, enough for the portal to take it in as a plain invoice. */
const pdf = (label: string) =>
  new Uint8Array(
    Buffer.from(`%PDF-1.4\n% ${label}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`),
  );

async function mailTo(address: string, subject: string): Promise<CaughtMail | undefined> {
  const url = `${process.env.MAIL_CATCHER_URL}/messages?to=${encodeURIComponent(address)}`;
  const mails = (await (await fetch(url)).json()) as CaughtMail[];
  return mails.find((mail) => mail.subject === subject);
}

test.describe('tell me when it arrives', () => {
  test.describe.configure({ timeout: 120_000 });
  // Signed in already, with the reader's shared state: the way in is invoice.spec.ts's.
  test.use({ signedInAs: 'reader' });

  test('a person asks on an unknown code; the invoice is ingested; the mail arrives with the link; the link opens it', async ({
    page,
    portal,
  }, testInfo) => {
    const parcelCode = `ARRIVE-${testInfo.project.name}-${testInfo.parallelIndex}-${Date.now()}`;
    await page.goto(`/invoice?parcelCode=${parcelCode}`);
    // The spec's error first, then the way on below it.
    const dialog = page.getByRole('dialog', { name: 'Error' });
    // The first answer shares a busy machine with the rest of the suite.
    await expect(dialog).toBeVisible({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Tell me when it arrives' }).click();
    await expect(page.getByText(`You will get one e-mail when the invoice for ${parcelCode} arrives`)).toBeVisible({
      timeout: 30_000,
    });

    const ingestedAt = Date.now();
    const stored = await portal.adminUpload('PUT', `/api/invoices/${parcelCode}`, pdf(parcelCode), 'application/pdf');
    expect(stored.status).toBe(201);
    const subject = `The invoice for parcel ${parcelCode} has arrived`;
    let mail: CaughtMail | undefined;
    await expect
      .poll(async () => (mail = await mailTo(DEMO.user.email, subject)), { timeout: 30_000, intervals: [100] })
      .toBeTruthy();
    testInfo.annotations.push({ type: 'mail after ingestion', description: `${Date.now() - ingestedAt} ms` });
    const link = /https?:\/\/\S+\/invoice\?parcelCode=\S+/.exec(mail!.text)?.[0];
    expect(link).toContain(`/invoice?parcelCode=${parcelCode}`);

    await page.goto(link!);
    await expect(page.getByRole('button', { name: 'History' })).toBeVisible({ timeout: 30_000 });
    // The request is closed: the screen offers nothing more for it.
    await expect(page.getByRole('button', { name: 'Tell me when it arrives' })).toHaveCount(0);
  });
});
