import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import {
  buildWeb,
  demoAccount,
  findFreePort,
  identityToolkit,
  startSentryReceiver,
  startMailCatcher,
  startStack,
} from '@portal/dev-stack';
import {
  createSoftwareAuthenticator,
  enrollPasskey,
  httpPortalCall,
  stepUpWithPasskey,
  type ExportedCredential,
  type SoftwareAuthenticator,
} from '@portal/dev-stack/passkeys';

/** Lookups without a token allowed per minute in e2e: enough for every spec, few enough to test the limit. */
export const E2E_LOOKUP_LIMIT = 30;

/** The demo admin's passkeys, one per test worker, as exported credentials in JSON: see below. */
export const E2E_ADMIN_PASSKEYS_ENV = 'E2E_ADMIN_PASSKEYS';

/** The same for the demo finance user, whose Invoices page asks for a passkey too. */
export const E2E_FINANCE_PASSKEYS_ENV = 'E2E_FINANCE_PASSKEYS';

/**
 * The folder the `sign-in states` project writes each role's signed-in browser state to (see
 * sign-in-states.setup.ts); made here and removed with the stack, since the states hold refresh tokens.
 */
export const E2E_SIGNED_IN_STATES_ENV = 'E2E_SIGNED_IN_STATES';

/**
 * How long an admin's passkey confirmation holds in e2e: half a minute, so a spec can watch it run out.
 * Nothing may depend on a confirmation outliving a test, however slow the machine: pages on the admin screen
 * answer every prompt and card that asks again (`answerPasskeyPrompts`), and the test's own admin calls
 * confirm again whenever they are refused for it (`adminApi`, `adminUpload`). Not less: a first passkey needs
 * a password sign-in within this time, and on a two-core machine under load (load average 12) signing in and
 * filling in the enrollment code took longer than the 10 s it was, so the set-up was refused twice running.
 */
export const E2E_STEP_UP_SECONDS = 30;

/**
 * Ceremonies one admin may run a minute in e2e: the demo admin is every worker's, and each test confirms
 * its page and its own calls; the limit itself is tested in the API tests.
 */
const E2E_CEREMONIES_PER_MINUTE = 1000;

/**
 * The demo admin's (or the demo finance user's) first visit to the page that asks for a passkey, done through
 * the API with passkeys made in Node: every spec then finds them with a passkey. Each test worker gets a
 * passkey of its own (the first, then more added by a sign-in confirmed with it), as each of a person's
 * devices holds its own: workers signing with one key at once could send its signature counter backwards,
 * which the portal refuses as a cloned key.
 */
async function givePasskeysTo(
  email: 'admin@example.com' | 'finance@example.com',
  portalUrl: string,
  emulatorUrl: string,
  count: number,
  enrollmentCode: string | undefined,
) {
  // The first passkey needs the code the demo seed issued, as npm start prints it.
  if (!enrollmentCode) throw new Error(`the demo seed issued no enrollment code for ${email}`);
  const account = demoAccount(email);
  const { idToken } = await identityToolkit(emulatorUrl).signIn(account.email, account.password);
  const call = httpPortalCall(portalUrl, idToken);
  const keys: ExportedCredential[] = [];
  let first: SoftwareAuthenticator | undefined;
  for (let index = 0; index < count; index++) {
    const authenticator = createSoftwareAuthenticator({ origin: portalUrl, signCountFromClock: true });
    if (first) await stepUpWithPasskey(call, first);
    await enrollPasskey(call, authenticator, first ? {} : { enrollmentCode });
    const [credential] = authenticator.credentials;
    if (!credential) throw new Error(`the passkey of ${email} was not made`);
    keys.push(authenticator.export(credential));
    first ??= authenticator;
  }
  return JSON.stringify(keys);
}

/** Starts the stack the way `npm start` does, on free ports with a throwaway data folder. */
export default async function globalSetup(config: FullConfig) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-'));
  const signedInStates = await mkdtemp(path.join(os.tmpdir(), 'portal-e2e-signed-in-'));
  if (!process.env.SKIP_BUILD) await buildWeb();
  const sentry = await startSentryReceiver();
  const mailCatcher = await startMailCatcher();
  const apiLog: string[] = [];
  const stack = await startStack({
    port: await findFreePort(),
    emulatorPort: await findFreePort(),
    dataDir,
    env: {
      SENTRY_DSN: sentry.dsn,
      SMTP_URL: mailCatcher.smtpUrl,
      MAIL_FROM: 'Parcel Invoice Portal <portal@localhost>',
      RATE_LIMIT_LOOKUPS_PER_MINUTE: String(E2E_LOOKUP_LIMIT),
      // The browser tests call lookups from one machine on several workers at once, and one of them spends a
      // client's whole allowance in a burst: the instance's anonymous budget (tested by the API tests) would
      // refuse some of those first.
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '10000',
      RATE_LIMIT_ANONYMOUS_CONCURRENCY: '1000',
      ADMIN_STEP_UP_MAX_AGE_SECONDS: String(E2E_STEP_UP_SECONDS),
      RATE_LIMIT_PASSKEY_CEREMONIES_PER_MINUTE: String(E2E_CEREMONIES_PER_MINUTE),
      LOG_LEVEL: 'warn',
    },
    log: (line) => apiLog.push(line),
  });
  process.env.PORTAL_URL = stack.url;
  process.env.EMULATOR_URL = stack.emulator.url;
  process.env.EMULATOR_PROJECT_ID = stack.emulator.projectId;
  process.env.SENTRY_RECEIVER_URL = sentry.url;
  process.env.MAIL_CATCHER_URL = mailCatcher.url;
  process.env[E2E_SIGNED_IN_STATES_ENV] = signedInStates;
  process.env[E2E_ADMIN_PASSKEYS_ENV] = await givePasskeysTo(
    'admin@example.com',
    stack.url,
    stack.emulator.url,
    config.workers,
    stack.demoAdminEnrollment?.code,
  );
  process.env[E2E_FINANCE_PASSKEYS_ENV] = await givePasskeysTo(
    'finance@example.com',
    stack.url,
    stack.emulator.url,
    config.workers,
    stack.demoFinanceEnrollment?.code,
  );

  return async () => {
    await stack.stop();
    await sentry.close();
    await mailCatcher.close();
    if (process.env.E2E_SHOW_API_LOG) process.stdout.write(`${apiLog.join('\n')}\n`);
    await rm(dataDir, { recursive: true, force: true });
    await rm(signedInStates, { recursive: true, force: true });
  };
}
