// Fixtures for the benchmarks: a real PDF of a chosen size, an ID token and an allowlisted account.
import { createHash } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import { loadConfig } from '@portal/api/config.ts';
import { withDomain } from '@portal/api/domain.ts';
import type { AuthEmulator } from './auth-emulator.ts';
import { renderDemoInvoicePdf } from './demo/invoice-pdf.ts';
import { identityToolkit } from './identity-toolkit.ts';

/** Deterministic, incompressible filler: compression cannot shrink it, so the file has the size asked for. */
function filler(length: number) {
  const chunks: Buffer[] = [];
  for (let i = 0; chunks.length * 32 < length; i++) chunks.push(createHash('sha256').update(`bench-${i}`).digest());
  return Buffer.concat(chunks).subarray(0, length);
}

/** The demo invoice with an attachment that brings it to about `targetBytes`: still a PDF any viewer opens. */
export async function makeBenchPdf(parcelCode: string, targetBytes: number): Promise<Buffer> {
  const base = await renderDemoInvoicePdf(parcelCode);
  const document = await PDFDocument.load(base);
  await document.attach(filler(Math.max(0, targetBytes - base.length - 600)), 'delivery-photo.bin', {
    mimeType: 'application/octet-stream',
    description: 'Proof-of-delivery data',
    creationDate: new Date(Date.UTC(2025, 0, 1)),
    modificationDate: new Date(Date.UTC(2025, 0, 1)),
  });
  return Buffer.from(await document.save());
}

export async function signUpForToken(emulator: AuthEmulator, email: string) {
  return identityToolkit(emulator.url).signUp(email, 'bench-password-1');
}

/** Writes the allowlist row before the server starts: an embedded database has one owner at a time. */
export async function seedBenchUser(env: NodeJS.ProcessEnv, account: { email: string; uid: string }) {
  await withDomain(loadConfig(env), async ({ users }) => {
    await users.insert({
      email: account.email,
      firebaseUid: account.uid,
      activated: true,
      registered: true,
      createdBy: 'bench',
    });
  });
}
