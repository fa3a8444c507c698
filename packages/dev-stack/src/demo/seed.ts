import { loadConfig } from '@portal/api/config.ts';
import type { IdentityProvider } from '@portal/api/identity/identity-provider.ts';
import type { BlobStore } from '@portal/api/blob-store/blob-store.ts';
import { requireInvoiceHead } from '@portal/api/invoices/ingest.ts';
import type { InvoicesRepository, RecordOutcome } from '@portal/api/invoices/repository.ts';
import { withDomain, type Domain } from '@portal/api/domain.ts';
import type { UsersRepository } from '@portal/api/users/repository.ts';
import { identityToolkit, toolkitErrorCode, type IdentityToolkit } from '../identity-toolkit.ts';
import { DEMO_ACCOUNTS, DEMO_PARCEL_CODES } from './accounts.ts';
import { renderDemoInvoicePdf } from './invoice-pdf.ts';

const MAX_DEMO_BYTES = 5 * 1024 * 1024;

/**
 * Idempotent: a second run finds every account and row in place and changes nothing. Accounts with a
 * password are signed up through the emulator's REST API, as a person would; the invited one gets no
 * password, as an admin's add would leave it.
 */
export async function seedDemoUsers(
  identity: IdentityProvider,
  users: UsersRepository,
  toolkit: IdentityToolkit,
): Promise<Record<string, string>> {
  const uids: Record<string, string> = {};
  for (const account of DEMO_ACCOUNTS) {
    const uid = account.password
      ? await signUpOrFind(identity, toolkit, account.email, account.password)
      : (await identity.createUser(account.email)).uid;
    // As the portal marks an account at its password sign-in: a company sign-in then keeps the demo password.
    if (account.password && account.allowlisted) await identity.markEmailVerified(uid);
    uids[account.email] = uid;
    if (!account.allowlisted) continue;
    const existing = await users.findByEmail(account.email);
    if (existing) {
      if (existing.firebaseUid !== uid) await users.update(account.email, { firebaseUid: uid });
      continue;
    }
    await users.insert({
      email: account.email,
      admin: account.admin,
      finance: account.finance,
      activated: account.activated,
      registered: true,
      firebaseUid: uid,
      createdBy: 'demo seed',
    });
  }
  return uids;
}

async function signUpOrFind(identity: IdentityProvider, toolkit: IdentityToolkit, email: string, password: string) {
  const { status, body } = await toolkit.call('signUp', { email, password, returnSecureToken: true });
  if (status === 200) return String(body.localId);
  // Kept from an earlier run (the emulator's accounts persist): its password may have been changed since.
  const existing = toolkitErrorCode(body) === 'EMAIL_EXISTS' ? await identity.findUserByEmail(email) : undefined;
  if (!existing) throw new Error(`could not create the demo account ${email}: ${JSON.stringify(body)}`);
  return existing.uid;
}

/**
 * Idempotent: a code that already has an invoice is left alone (it may have been replaced on purpose
 * through the portal), so a restart never undoes someone's upload and never grows the version history.
 */
export async function seedDemoInvoices(blobStore: BlobStore, invoicesRepository: InvoicesRepository) {
  const outcomes: Record<string, RecordOutcome> = {};
  for (const parcelCode of DEMO_PARCEL_CODES) {
    if (await invoicesRepository.findByParcelCode(parcelCode)) {
      outcomes[parcelCode] = 'unchanged';
      continue;
    }
    const pdf = await renderDemoInvoicePdf(parcelCode);
    const blob = await blobStore.put(pdf, { maxBytes: MAX_DEMO_BYTES, validateHead: requireInvoiceHead });
    const recorded = await invoicesRepository.recordVersion({ parcelCode, uploadedBy: 'demo seed', ...blob });
    outcomes[parcelCode] = recorded.status;
  }
  return outcomes;
}

/**
 * What a seed made: the demo accounts' uids, and the enrollment codes of the demo admin and the demo finance
 * user while they have no passkey.
 */
export interface DemoSeed {
  accounts: Record<string, string>;
  adminEnrollment?: { code: string; expiresAt: string } | undefined;
  financeEnrollment?: { code: string; expiresAt: string } | undefined;
}

/**
 * The demo data `npm start` shows, through a domain built on the Auth emulator; the invoices first, so the
 * database's part can go on while the emulator is still starting (`emulatorReady`). The demo admin's first
 * passkey needs an enrollment code like anyone's: the seed issues one, as the CLI would at go-live, for the
 * banner to print.
 */
export async function seedDemoData(
  domain: Pick<Domain, 'config' | 'identity' | 'users' | 'invoices' | 'blobStore' | 'passkeys'>,
  emulatorReady?: Promise<unknown>,
): Promise<DemoSeed> {
  const emulatorHost = domain.config.firebase.emulatorHost;
  // Demo accounts have published passwords: never against a real identity provider.
  if (!emulatorHost) throw new Error('Demo data is seeded only with the Auth emulator (FIREBASE_AUTH_EMULATOR_HOST)');
  await seedDemoInvoices(domain.blobStore, domain.invoices);
  await emulatorReady;
  const accounts = await seedDemoUsers(domain.identity, domain.users, identityToolkit(`http://${emulatorHost}`));
  const admin = DEMO_ACCOUNTS.find((account) => account.admin && account.allowlisted);
  const adminEnrollment = admin
    ? await domain.passkeys.codeForNewAdmin({ email: admin.email, actor: 'demo seed' })
    : undefined;
  // The finance role's calls need a passkey too: the demo finance user's first is set up with this code.
  const finance = DEMO_ACCOUNTS.find((account) => account.finance && !account.admin && account.allowlisted);
  const financeEnrollment = finance
    ? await domain.passkeys.codeForNewAdmin({ email: finance.email, actor: 'demo seed' })
    : undefined;
  return { accounts, adminEnrollment, financeEnrollment };
}

/**
 * Seeds with the configuration the server is about to get, before it starts: an embedded database
 * belongs to one process at a time, so the seed opens it, fills it and closes it again first.
 */
export async function seedDemoDataFromEnv(env: NodeJS.ProcessEnv, emulatorReady?: Promise<unknown>) {
  return withDomain(loadConfig(env), (domain) => seedDemoData(domain, emulatorReady));
}
