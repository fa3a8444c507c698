import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from '@portal/dev-stack';

export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // Two workers share one stack. A test changes only what is its own (addresses and accounts it makes, a
  // parcel code and a passkey per worker) and leaves the demo accounts as they were, so any two tests may
  // run side by side; test by test, the longest file does not finish alone. More workers than two would
  // only queue on these 2-core machines.
  workers: 2,
  fullyParallel: true,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: './test-results',
  use: {
    launchOptions: { executablePath: chromiumExecutable(), args: CHROMIUM_ARGS },
    // Kept for a failed test: its actions with their errors and timings, the network and the console, and a
    // screenshot of the end; not a screencast, nor a DOM snapshot around every action. Each was recorded for every
    // test and thrown away with the passes: the film cost a quarter of the suite's CPU time, the snapshots a tenth
    // (decisions 0125, 0134).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    // Each role signed in once, its state saved for the tests that start signed in (decision 0125).
    { name: 'sign-in states', testMatch: 'sign-in-states.setup.ts', use: { ...devices['Desktop Chrome'] } },
    {
      name: 'desktop',
      grepInvert: /@phone/,
      dependencies: ['sign-in states'],
      use: { ...devices['Desktop Chrome'] },
    },
    // What a phone lays out or reaches differently (cards, row menus, the header, the pages PDF.js draws, 44 px
    // targets) on the invoice, e-invoice, admin and Invoices screens; the rest is tagged @desktop
    // (docs/testing.md says why, test by test).
    {
      name: 'phone',
      dependencies: ['sign-in states'],
      testMatch: [
        'invoice.spec.ts',
        'e-invoice.spec.ts',
        'admin.spec.ts',
        'invoices-search.spec.ts',
        'invoices-month.spec.ts',
      ],
      grepInvert: /@desktop/,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
      },
    },
  ],
});
