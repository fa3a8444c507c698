// Fixtures for the benchmarks: a real PDF of a chosen size, an ID token and an allowlisted account.
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { databaseTargetFor, openDatabase } from '../../apps/api/src/db/client.ts';
import { renderDemoInvoicePdf } from '../../apps/api/src/invoices/demo-invoice-pdf.ts';
import { createUsersRepository } from '../../apps/api/src/repositories/users-repository.ts';
import type { AuthEmulator } from './auth-emulator.ts';

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
  const response = await fetch(`${emulator.url}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password-1', returnSecureToken: true }),
  });
  const body = (await response.json()) as { idToken?: string };
  if (!response.ok || !body.idToken) throw new Error(`signUp failed: ${JSON.stringify(body)}`);
  return body.idToken;
}

/** Writes the allowlist row before the server starts: an embedded database has one owner at a time. */
export async function seedBenchUser(dataDir: string, email: string) {
  const database = await openDatabase(
    databaseTargetFor({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir }),
  );
  try {
    await createUsersRepository(database.db).insert({ email, activated: true, registered: true, createdBy: 'bench' });
  } finally {
    await database.close();
  }
}
