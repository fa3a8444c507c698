/**
 * What `npm start` seeded into a data folder, so a later start seeds only what has gone missing and, when
 * nothing has, starts the API at once instead of opening the embedded database twice (the seed and then
 * the server: it belongs to one process at a time). Read without opening the database: the record, the
 * database folder, and the Auth emulator's saved accounts.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_ACCOUNTS } from './accounts.ts';

const RECORD_FILE = 'demo-seed.json';

interface SeedRecord {
  /** e-mail → uid of each demo account when it was seeded. */
  accounts: Record<string, string>;
  /**
   * The demo admin's enrollment code, issued by that seed (demo data only: the code of a published demo
   * password), so a later start that does not seed can print it again while it lasts.
   */
  adminEnrollment?: { code: string; expiresAt: string } | undefined;
  /** The same for the demo finance user (the Invoices page needs a passkey as the admin page does). */
  financeEnrollment?: { code: string; expiresAt: string } | undefined;
}

/** A recorded code this close to running out is issued again: the banner never shows one about to expire. */
const CODE_MARGIN_MS = 60 * 60_000;

/** The emulator's export (firebase-tools' format): one entry per account. */
interface EmulatorExport {
  users?: { localId?: string; email?: string }[];
}

/**
 * Why the demo data must be seeded (again) into `dataDir`, or an empty list when everything the last seed
 * made is still there. `accountsDir` is where the emulator exports its accounts on the way out.
 */
export async function missingDemoData(dataDir: string, accountsDir: string): Promise<string[]> {
  const record = await readJson<SeedRecord>(path.join(dataDir, RECORD_FILE));
  if (!record) return ['no demo data yet'];
  const enrollment = record.adminEnrollment;
  if (enrollment && Date.parse(enrollment.expiresAt) - Date.now() < CODE_MARGIN_MS) {
    return ["the demo admin's enrollment code runs out"];
  }
  const financeEnrollment = record.financeEnrollment;
  if (financeEnrollment && Date.parse(financeEnrollment.expiresAt) - Date.now() < CODE_MARGIN_MS) {
    return ["the demo finance user's enrollment code runs out"];
  }
  if (!existsSync(path.join(dataDir, 'db', 'PG_VERSION'))) return ['no database'];
  const saved = await readJson<EmulatorExport>(path.join(accountsDir, 'auth_export', 'accounts.json'));
  const uids = new Set((saved?.users ?? []).map((user) => `${user.email}\0${user.localId}`));
  // A demo account deleted in the portal, or accounts lost with an emulator that could not save them.
  return DEMO_ACCOUNTS.filter((account) => !uids.has(`${account.email}\0${record.accounts[account.email]}`)).map(
    (account) => `${account.email} has no sign-in account`,
  );
}

export async function recordDemoSeed(dataDir: string, seed: SeedRecord): Promise<void> {
  await writeFile(path.join(dataDir, RECORD_FILE), `${JSON.stringify(seed satisfies SeedRecord, null, 2)}\n`);
}

/** The demo admin's enrollment code the last seed recorded, when there is one still valid. */
export async function recordedAdminEnrollment(dataDir: string): Promise<SeedRecord['adminEnrollment']> {
  const enrollment = (await readJson<SeedRecord>(path.join(dataDir, RECORD_FILE)))?.adminEnrollment;
  return enrollment && Date.parse(enrollment.expiresAt) > Date.now() ? enrollment : undefined;
}

/** The demo finance user's enrollment code the last seed recorded, when there is one still valid. */
export async function recordedFinanceEnrollment(dataDir: string): Promise<SeedRecord['financeEnrollment']> {
  const enrollment = (await readJson<SeedRecord>(path.join(dataDir, RECORD_FILE)))?.financeEnrollment;
  return enrollment && Date.parse(enrollment.expiresAt) > Date.now() ? enrollment : undefined;
}

/** Before a seed: a seed cut short must not leave the record of an earlier, complete one. */
export async function forgetDemoSeed(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, RECORD_FILE), { force: true });
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
