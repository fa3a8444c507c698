import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { demoAccount, identityToolkit, type ReceivedEvent } from '@portal/dev-stack';

export { expect };

export const DEMO = {
  admin: demoAccount('admin@example.com'),
  user: demoAccount('user@example.com'),
  invited: demoAccount('invited@example.com'),
  outsider: demoAccount('outsider@example.com'),
};

export interface Portal {
  /** http://localhost:<port> of the API serving the SPA */
  url: string;
  emulatorUrl: string;
  projectId: string;
  /** Signs in through the login screen (the page must be on /login or be redirected there). */
  signIn(page: Page, account: { email: string; password: string }): Promise<void>;
  /** A real ID token from the emulator, for calling the API directly. */
  idToken(account: { email: string; password: string }): Promise<string>;
  sentryEvents(): Promise<ReceivedEvent[]>;
  clearSentryEvents(): Promise<void>;
  /** Fails on any serious or critical accessibility violation on the page as it is now. */
  expectAccessible(page: Page): Promise<void>;
}

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests through playwright.config.ts`);
  return value;
};

export const test = base.extend<{ portal: Portal }>({
  baseURL: async ({}, use) => use(env('PORTAL_URL')),
  portal: async ({}, use) => {
    const emulatorUrl = env('EMULATOR_URL');
    const projectId = env('EMULATOR_PROJECT_ID');
    const sentryUrl = env('SENTRY_RECEIVER_URL');
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
        return (await identityToolkit(emulatorUrl).signIn(account.email, account.password)).idToken;
      },
      sentryEvents: async () => (await (await fetch(`${sentryUrl}/events`)).json()) as ReceivedEvent[],
      clearSentryEvents: async () => void (await fetch(`${sentryUrl}/events`, { method: 'DELETE' })),
      async expectAccessible(page) {
        // A modal fading in is half transparent: axe would measure the contrast of a frame mid-transition.
        await page.waitForFunction(() =>
          document.getAnimations().every((animation) => animation.playState !== 'running'),
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
