import { test, type Page, type PageScreenshotOptions } from '@playwright/test';

/**
 * Pictures of a screen mid-test, for a person to look at: taken only with `E2E_SCREENSHOTS=1`. Nothing asserts
 * on them, and encoding them took about 6 % of the suite's CPU time (19 of 312 core-seconds) (decision 0134);
 * `npm run screenshots` draws every screen for looking at.
 */
export const SCREENSHOTS_WANTED = process.env.E2E_SCREENSHOTS === '1';

/** Saves what `page` shows as `fileName` in the test's output folder (e2e/test-results), when screenshots are wanted. */
export async function saveScreenshot(page: Page, fileName: string, options: Omit<PageScreenshotOptions, 'path'> = {}) {
  if (!SCREENSHOTS_WANTED) return;
  await page.screenshot({ ...options, path: test.info().outputPath(fileName) });
}
