import { existsSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { demoAccount, identityToolkit, type ReceivedEvent } from '@portal/dev-stack';
import {
  addPagePasskey,
  addVirtualAuthenticator,
  createSoftwareAuthenticator,
  httpPortalCall,
  httpPortalSession,
  stepUpWithPasskey,
  type ExportedCredential,
  type PortalCall,
  type VirtualAuthenticator,
} from '@portal/dev-stack/passkeys';
import { E2E_ADMIN_PASSKEYS_ENV, E2E_FINANCE_PASSKEYS_ENV, E2E_SIGNED_IN_STATES_ENV } from './global-setup.ts';

export { expect };

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests through playwright.config.ts`);
  return value;
};

export const DEMO = {
  admin: demoAccount('admin@example.com'),
  user: demoAccount('user@example.com'),
  finance: demoAccount('finance@example.com'),
  invited: demoAccount('invited@example.com'),
  outsider: demoAccount('outsider@example.com'),
};

/**
 * The roles whose signed-in browser state the `sign-in states` project saves once a run, for the tests
 * that start signed in rather than test the way in (decision 0125): the reader (an ordinary user), the
 * finance user and the admin, each their demo account, each signed in through the login screen and, where
 * the role asks for one, confirmed with a passkey. Shared read-only: a test that signs out, ends sessions or
 * changes what its account may do signs in an account of its own.
 */
export type SignedInRole = 'reader' | 'finance' | 'admin';

export const SIGNED_IN_ACCOUNTS: Record<SignedInRole, { email: string; password: string }> = {
  reader: DEMO.user,
  finance: DEMO.finance,
  admin: DEMO.admin,
};

/** Where the `sign-in states` project keeps a role's state (cookies and local storage) for this run. */
export const signedInStatePath = (role: SignedInRole) => path.join(env(E2E_SIGNED_IN_STATES_ENV), `${role}.json`);

export interface Portal {
  /** http://localhost:<port> of the API serving the SPA */
  url: string;
  emulatorUrl: string;
  projectId: string;
  /** Signs in through the login screen (the page must be on /login or be redirected there). */
  signIn(page: Page, account: { email: string; password: string }): Promise<void>;
  /** A real ID token from the emulator, for calling the API directly. */
  idToken(account: { email: string; password: string }): Promise<string>;
  /**
   * Calls the API as the demo admin from the test itself (set-up and clean-up): a sign-in that confirmed
   * with the admin's passkey, confirmed again whenever the confirmation runs out.
   */
  adminApi: PortalCall;
  /**
   * An admin call `adminApi` cannot send (a file upload), as a demo-admin sign-in that confirmed with the
   * passkey (bearer token and step-up secret); confirmed again and sent once more when refused for it.
   */
  adminUpload(
    method: 'PUT' | 'POST',
    path: string,
    body: Uint8Array<ArrayBuffer>,
    contentType: string,
  ): Promise<Response>;
  /**
   * Gives the page a platform authenticator (fingerprint reader, as it were) that verifies its user; with
   * `account` (the demo admin or the demo finance user), it holds a passkey of theirs, set up through the
   * API, so "Use passkey" works.
   */
  addAuthenticator(page: Page, account?: { email: string; password: string }): Promise<VirtualAuthenticator>;
  /**
   * Whenever the admin page asks for the passkey again (the confirmation ran out: the prompt over an action,
   * or the card after a reload), answers it: no test depends on a confirmation outliving it.
   */
  answerPasskeyPrompts(page: Page): Promise<void>;
  sentryEvents(): Promise<ReceivedEvent[]>;
  clearSentryEvents(): Promise<void>;
  /** Fails on any serious or critical accessibility violation on the page as it is now. */
  expectAccessible(page: Page): Promise<void>;
}

const STEP_UP_REQUIRED = 'step-up-required';

/**
 * This worker's passkey of the demo admin's (or the demo finance user's), from global set-up: signs on the
 * clock, so each test's copy counts past the one before.
 */
function workerPasskey(passkeysEnv: string, portalUrl: string, workerIndex: number) {
  const keys = JSON.parse(env(passkeysEnv)) as ExportedCredential[];
  const key = keys[workerIndex];
  if (!key)
    throw new Error(`global set-up made ${keys.length} passkeys in ${passkeysEnv}, none for worker ${workerIndex}`);
  const authenticator = createSoftwareAuthenticator({ origin: portalUrl, signCountFromClock: true });
  authenticator.import(key);
  return authenticator;
}

/**
 * An admin page just signed in confirms with its passkey: a confirmation belongs to the browser whose
 * ceremony made it, so a fresh sign-in always meets the "Confirm it's you" card. The page's prompt watcher
 * (`answerPasskeyPrompts`, started first) answers it while this waits for the user list; resolving only
 * once the list shows keeps the test from cutting the ceremony off.
 */
export async function confirmAdminPageIfAsked(page: Page) {
  await expect(page.getByRole('tab', { name: 'User list' })).toBeVisible();
}

export const test = base.extend<{ portal: Portal; signedInAs: SignedInRole | undefined }>({
  baseURL: async ({}, use) => use(env('PORTAL_URL')),
  /** `test.use({ signedInAs: 'reader' })`: the test's pages start with that role's shared signed-in state. */
  signedInAs: [undefined, { option: true }],
  storageState: async ({ signedInAs, storageState }, use) => {
    if (!signedInAs) return use(storageState);
    const saved = signedInStatePath(signedInAs);
    if (!existsSync(saved)) {
      throw new Error(
        `no signed-in state for ${signedInAs}: the \`sign-in states\` project saves it (not run with --no-deps)`,
      );
    }
    await use(saved);
  },
  portal: async ({}, use, testInfo) => {
    const emulatorUrl = env('EMULATOR_URL');
    const projectId = env('EMULATOR_PROJECT_ID');
    const sentryUrl = env('SENTRY_RECEIVER_URL');
    const portalUrl = env('PORTAL_URL');
    const toolkit = identityToolkit(emulatorUrl);
    const adminPasskey = workerPasskey(E2E_ADMIN_PASSKEYS_ENV, portalUrl, testInfo.parallelIndex);
    const financePasskey = workerPasskey(E2E_FINANCE_PASSKEYS_ENV, portalUrl, testInfo.parallelIndex);
    const passkeyOf = (email: string) => {
      if (email === DEMO.admin.email) return adminPasskey;
      if (email === DEMO.finance.email) return financePasskey;
      throw new Error(`no worker passkey for ${email}: only the demo admin and the demo finance user have them`);
    };
    let adminCall: PortalCall | undefined;
    const steppedUpAdminSession = async () => {
      const session = httpPortalSession(
        portalUrl,
        (await toolkit.signIn(DEMO.admin.email, DEMO.admin.password)).idToken,
      );
      await stepUpWithPasskey(session.call, adminPasskey);
      return session;
    };
    const steppedUpAdmin = async () => (await steppedUpAdminSession()).call;
    const adminApi: PortalCall = async (method, path, body) => {
      adminCall ??= await steppedUpAdmin();
      const answer = await adminCall(method, path, body);
      if ((answer.body as { code?: string } | undefined)?.code !== STEP_UP_REQUIRED) return answer;
      adminCall = await steppedUpAdmin();
      return adminCall(method, path, body);
    };
    await use({
      url: env('PORTAL_URL'),
      emulatorUrl,
      projectId,
      async signIn(page, account) {
        await page.getByLabel('Email address').fill(account.email);
        await page.getByLabel('Password').fill(account.password);
        await page.getByRole('button', { name: 'Submit' }).click();
      },
      async idToken(account) {
        return (await toolkit.signIn(account.email, account.password)).idToken;
      },
      adminApi,
      async adminUpload(method, path, body, contentType) {
        const send = async () => {
          const session = await steppedUpAdminSession();
          return fetch(`${portalUrl}${path}`, {
            method,
            headers: { ...session.headers(), 'content-type': contentType },
            body,
          });
        };
        const first = await send();
        if (first.status !== 403) return first;
        const { code } = (await first.clone().json()) as { code?: string };
        return code === STEP_UP_REQUIRED ? send() : first;
      },
      async addAuthenticator(page, account) {
        const virtual = await addVirtualAuthenticator(page);
        if (!account) return virtual;
        // A passkey of its own for this page, set up by a sign-in that confirmed with the worker's passkey
        // (a second one needs the first).
        const signedIn = httpPortalCall(portalUrl, (await toolkit.signIn(account.email, account.password)).idToken);
        await stepUpWithPasskey(signedIn, passkeyOf(account.email));
        await addPagePasskey(virtual, signedIn, portalUrl);
        return virtual;
      },
      async answerPasskeyPrompts(page) {
        // Watched all the time, not only when the test acts: a test waiting on a request or a response (no
        // action, no assertion) would otherwise wait behind a prompt nobody answers. While the prompt is up the
        // page takes no other input, so answering it cannot get in the test's way.
        const asked = page
          .getByRole('dialog', { name: "Confirm it's you" })
          .or(page.getByRole('region', { name: "Confirm it's you" }))
          .getByRole('button', { name: 'Use passkey' })
          .first();
        const answer = async () => {
          while (!page.isClosed()) {
            if ((await asked.isVisible().catch(() => false)) && (await asked.isEnabled().catch(() => false))) {
              // The prompt may close under the click (its ceremony done): that is an answer too.
              await asked.click({ timeout: 5_000 }).catch(() => undefined);
            }
            await page.waitForTimeout(250).catch(() => undefined);
          }
        };
        void answer();
      },
      sentryEvents: async () => (await (await fetch(`${sentryUrl}/events`)).json()) as ReceivedEvent[],
      clearSentryEvents: async () => void (await fetch(`${sentryUrl}/events`, { method: 'DELETE' })),
      async expectAccessible(page) {
        // A modal fading in is half transparent: axe would measure the contrast of a frame mid-transition. A
        // spinner turns for as long as its call is held (behind a passkey prompt, say): it never settles.
        await page.waitForFunction(() =>
          document
            .getAnimations()
            .every(
              (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
            ),
        );
        const results = await new AxeBuilder({ page }).analyze();
        const serious = results.violations.filter(
          (violation) => violation.impact === 'serious' || violation.impact === 'critical',
        );
        expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.length})`)).toEqual(
          [],
        );
      },
    });
  },
});
