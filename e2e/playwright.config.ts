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
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'desktop', grepInvert: /@phone/, use: { ...devices['Desktop Chrome'] } },
    // The invoice, e-invoice, admin and Invoices screens as a phone shows them: narrow, touch, PDF.js drawing the pages.
    {
      name: 'phone',
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
