/**
 * A signed-in person opening an invoice link, timed in Chromium: from the navigation's start to the PDF's
 * frame in the page (an iframe on a blob: URL), with the app's own user timings on the way (configuration
 * loaded, sign-in restored, ID token, invoice received) to show where the time goes.
 */
import type { BrowserContext } from 'playwright-core';

export const LINK_STAGES = ['portal:config', 'portal:signed-in', 'portal:token', 'portal:invoice', 'frame'] as const;
export type LinkTiming = Record<(typeof LINK_STAGES)[number], number>;

/** Records when the PDF frame enters the page; runs before any of the page's own scripts. */
function watchForFrame() {
  const timings = window as unknown as { frameAt?: number };
  new MutationObserver((_records, observer) => {
    if (document.querySelector('iframe[src^="blob:"]')) {
      timings.frameAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

export async function timeInvoiceLink(
  context: BrowserContext,
  url: string,
  options: { clearCache: boolean },
): Promise<LinkTiming> {
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.addInitScript(watchForFrame);
    if (options.clearCache) await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { frameAt?: number }).frameAt !== undefined, null, {
      timeout: 30_000,
    });
    // A string, not a function: tsx compiles functions with a helper (__name) the page does not have.
    const timing = (await page.evaluate(`({
      ...Object.fromEntries(${JSON.stringify(LINK_STAGES)}.map((stage) =>
        [stage, performance.getEntriesByName(stage)[0]?.startTime ?? Number.NaN])),
      frame: window.frameAt,
    })`)) as LinkTiming;
    return timing;
  } finally {
    await page.close();
  }
}

export function median(values: number[]): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
