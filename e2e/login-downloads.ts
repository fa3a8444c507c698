import { expect, type Page } from '@playwright/test';
import { LOGIN_FIRST_LOAD_BUDGET_BYTES } from '../scripts/lib/first-load.ts';

/** One file the page downloaded from the portal, as the browser's resource timing saw it. */
export interface Download {
  url: string;
  /** The body as it came over the wire (brotli here), without headers: what the budget counts. */
  encodedBytes: number;
  /** Body and headers, as DevTools' "transferred" column shows it. */
  transferredBytes: number;
  /** The response's Content-Encoding, as the page received it. */
  encoding: string | undefined;
}

/**
 * Everything the login page downloads from the portal until the network is idle, measured the way a browser
 * does (the `performance` timeline's navigation and resource entries), with nobody touching the page: what a
 * person pays for before signing in. Files from other origins (the identity provider) are not the portal's to
 * trim and are left out.
 */
export async function loginPageDownloads(page: Page, portalUrl: string): Promise<Download[]> {
  const encodings = new Map<string, string | undefined>();
  page.on('response', (response) => encodings.set(response.url(), response.headers()['content-encoding']));
  await page.goto(`${portalUrl}/login`, { waitUntil: 'networkidle' });
  const entries = await page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => {
      const timing = entry as PerformanceResourceTiming;
      return { url: timing.name, encodedBytes: timing.encodedBodySize, transferredBytes: timing.transferSize };
    }),
  );
  const origin = new URL(portalUrl).origin;
  return entries
    .filter((entry) => new URL(entry.url).origin === origin)
    .map((entry) => ({ ...entry, encoding: encodings.get(entry.url) }));
}

export const isScript = (download: Download) => new URL(download.url).pathname.endsWith('.js');

export const bytesOf = (downloads: Download[]) => downloads.reduce((sum, file) => sum + file.encodedBytes, 0);

export const describeDownloads = (downloads: Download[]) =>
  downloads
    .map((file) => `${new URL(file.url).pathname} ${(file.encodedBytes / 1024).toFixed(1)} KB ${file.encoding ?? '-'}`)
    .join('\n');

/**
 * The login page's budget as a browser measures it: the script it downloads until the network is idle, every
 * file brotli-compressed, within LOGIN_FIRST_LOAD_BUDGET_BYTES. Counts what the page fetches after its first
 * paint too (lazy chunks, the identity provider's SDK), which the build's manifest alone does not show.
 */
export async function expectLoginPageWithinBudget(page: Page, portalUrl: string) {
  const downloads = await loginPageDownloads(page, portalUrl);
  const scripts = downloads.filter(isScript);
  const listing = describeDownloads(scripts);
  expect(scripts.length, 'the login page loaded no script from the portal').toBeGreaterThan(0);
  for (const script of scripts) expect(script.encoding, `${script.url} is sent brotli-compressed`).toBe('br');
  expect(bytesOf(scripts), `script downloaded until the network is idle:\n${listing}`).toBeLessThanOrEqual(
    LOGIN_FIRST_LOAD_BUDGET_BYTES,
  );
  return scripts;
}
