/**
 * `npm run bench:frontend`: the four figures a person feels, on the production build: the login page's
 * first-load script (brotli, as sent), a signed-in invoice link's time to its PDF frame in Chromium (median,
 * with where the time goes), and Lighthouse (mobile profile, Debian Chromium) on /login and on a signed-in
 * invoice page, with performance, FCP, LCP and the bytes on the wire.
 * The stack serves the built SPA exactly as `npm run serve` does (same plugin, pre-compressed files), with
 * the Auth emulator and the demo data, so the invoice page can be measured signed in: Playwright signs in
 * on the browser Lighthouse then drives, and Lighthouse keeps that browser's storage.
 * `--no-build` measures the build already in apps/web/dist. Figures are printed, not asserted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import {
  buildWeb,
  CHROMIUM_ARGS,
  chromiumExecutable,
  DEMO_ACCOUNTS,
  findFreePort,
  REPO_ROOT,
  startStack,
} from '@portal/dev-stack';
import { LOGIN_FIRST_LOAD_BUDGET_BYTES, loginFirstLoadBytes } from './lib/first-load.ts';
import { LINK_STAGES, median, timeInvoiceLink, type LinkTiming } from './lib/invoice-link-timing.ts';

const user = DEMO_ACCOUNTS.find((account) => account.email === 'user@example.com');
if (!user?.password) throw new Error('the demo data has no signed-up user@example.com');
// `--dist <folder>` measures another build (e.g. an older one) with the same server.
const distIndex = process.argv.indexOf('--dist');
const webDistDir = distIndex > 0 ? path.resolve(process.argv[distIndex + 1] ?? '') : undefined;
const runsIndex = process.argv.indexOf('--runs');
const LINK_RUNS = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 9;

if (!webDistDir && !process.argv.includes('--no-build')) await buildWeb();
const dist = webDistDir ?? path.join(REPO_ROOT, 'apps/web/dist');
const loginScriptBytes = loginFirstLoadBytes(dist);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-frontend-'));
const stack = await startStack({
  port: await findFreePort(),
  emulatorPort: await findFreePort(),
  dataDir,
  // The compiled API, as production runs it (built first when its sources changed).
  api: 'compiled',
  // With single sign-on, as `npm start` shows the login page: its pop-up's SDK is what the page may pay for.
  env: {
    LOG_LEVEL: 'warn',
    SSO_PROVIDER_ID: 'oidc.demo-company',
    SSO_BUTTON_LABEL: 'Demo Company',
    SSO_ALLOWED_DOMAINS: 'example.com',
    ...(webDistDir ? { WEB_DIST_DIR: webDistDir } : {}),
  },
});
const debuggingPort = await findFreePort();
const browser = await chromium.launchPersistentContext(path.join(dataDir, 'chromium'), {
  executablePath: chromiumExecutable(),
  headless: true,
  args: [...CHROMIUM_ARGS, `--remote-debugging-port=${debuggingPort}`],
});

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

/** The element Lighthouse took as the largest paint, and how its time splits (first byte, render delay...). */
function largestElement(audit: { details?: unknown } | undefined): string {
  interface Part {
    type?: string;
    snippet?: string;
    items?: { subpart?: string; duration?: number }[];
  }
  const parts = (audit?.details as { items?: Part[] } | undefined)?.items ?? [];
  const snippet = parts.find((part) => part.type === 'node')?.snippet ?? 'not reported';
  const table = parts.find((part) => part.type === 'table')?.items ?? [];
  const split = table.map((row) => `${row.subpart} ${Math.round(row.duration ?? 0)} ms`).join(', ');
  return split ? `${snippet.slice(0, 120)} (${split})` : snippet.slice(0, 120);
}

async function measure(label: string, url: string): Promise<number> {
  const result = await lighthouse(url, {
    port: debuggingPort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    disableStorageReset: true,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits } = result.lhr;
  const details = audits['network-requests']?.details as unknown as { items: NetworkRequest[] } | undefined;
  const requests = details?.items ?? [];
  const origin = new URL(url).origin;
  const own = requests.filter((request) => request.url.startsWith(origin));
  const bytes = (list: NetworkRequest[], type?: string) =>
    list
      .filter((request) => !type || request.resourceType === type)
      .reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
  console.log(`\n${label}  ${url}`);
  console.log(`  performance ${Math.round((categories.performance?.score ?? 0) * 100)}`);
  console.log(`  accessibility ${Math.round((categories.accessibility?.score ?? 0) * 100)}`);
  console.log(`  first contentful paint ${seconds(audits['first-contentful-paint']?.numericValue ?? 0)}`);
  console.log(`  largest contentful paint ${seconds(audits['largest-contentful-paint']?.numericValue ?? 0)}`);
  console.log(`  total blocking time ${Math.round(audits['total-blocking-time']?.numericValue ?? 0)} ms`);
  console.log(`  speed index ${seconds(audits['speed-index']?.numericValue ?? 0)}`);
  console.log(`  cumulative layout shift ${(audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)}`);
  if (process.env.BENCH_LIGHTHOUSE_JSON) {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      `${process.env.BENCH_LIGHTHOUSE_JSON}-${new URL(url).pathname.slice(1)}.json`,
      JSON.stringify(result.lhr),
    );
  }
  console.log(`  largest contentful paint element: ${largestElement(audits['lcp-breakdown-insight'])}`);
  console.log(
    `  on the wire from the portal: JS ${kb(bytes(own, 'Script'))}, CSS ${kb(bytes(own, 'Stylesheet'))}, ` +
      `total ${kb(bytes(own))}`,
  );
  console.log(
    `  from other origins (the Auth emulator here, Firebase in production): ${kb(bytes(requests) - bytes(own))}`,
  );
  return Math.round((categories.performance?.score ?? 0) * 100);
}

/**
 * The script the login page downloads from the portal until the network is idle (brotli bodies, from the
 * browser's resource timing, HTTP cache cleared), signed out: left alone, and after a first key press (what
 * it downloaded left alone before single sign-on's SDK waited for the person). Alternating, median of 3.
 */
async function measureLoginDownloads(url: string) {
  const sides = { untouched: [] as number[], 'after a first key': [] as number[] };
  for (let run = 0; run < 3; run++) {
    for (const side of Object.keys(sides) as (keyof typeof sides)[]) {
      const page = await browser.newPage();
      await (await browser.newCDPSession(page)).send('Network.clearBrowserCache');
      await page.goto(url, { waitUntil: 'networkidle' });
      if (side === 'after a first key') {
        await page.getByLabel('Email address').press('a');
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(500);
      }
      const origin = new URL(url).origin;
      const bytes = await page.evaluate(
        (own) =>
          performance
            .getEntriesByType('resource')
            .filter((entry) => entry.name.startsWith(own) && new URL(entry.name).pathname.endsWith('.js'))
            .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0),
        origin,
      );
      sides[side].push(bytes);
      await page.close();
    }
  }
  console.log(`
login page script until the network is idle (Chromium resource timing, brotli)  ${url}`);
  for (const [side, values] of Object.entries(sides))
    console.log(`  ${side.padEnd(18)} ${kb(median(values)).padStart(9)}   runs: ${values.map(kb).join(', ')}`);
  return median(sides.untouched);
}

/** The link's time to its frame, LINK_RUNS times with the HTTP cache kept and as many with it cleared. */
async function measureInvoiceLink(url: string) {
  await timeInvoiceLink(browser, url, { clearCache: false }); // warms the server's and the browser's caches
  const report = async (label: string, clearCache: boolean) => {
    const runs: LinkTiming[] = [];
    for (let run = 0; run < LINK_RUNS; run++) runs.push(await timeInvoiceLink(browser, url, { clearCache }));
    const stages = LINK_STAGES.map(
      (stage) => `${stage.replace('portal:', '')} ${Math.round(median(runs.map((t) => t[stage])))}`,
    );
    console.log(`  ${label}: median ms since navigation: ${stages.join(', ')}`);
    console.log(`    frame per run: ${runs.map((t) => Math.round(t.frame)).join(' ')}`);
    return median(runs.map((t) => t.frame));
  };
  console.log(`\ninvoice link to PDF frame (Chromium, signed in, 1366×768)  ${url}`);
  return { cached: await report('HTTP cache kept', false), uncached: await report('HTTP cache cleared', true) };
}

try {
  const loginIdleBytes = await measureLoginDownloads(`${stack.url}/login`);
  const loginScore = await measure('login page', `${stack.url}/login`);

  const page = await browser.newPage();
  await page.goto(`${stack.url}/login`);
  await page.getByLabel('Email address').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  // Kept storage keeps the session; the HTTP cache goes, so the page is measured as a first visit.
  await (await browser.newCDPSession(page)).send('Network.clearBrowserCache');
  await page.close();
  const invoiceUrl = `${stack.url}/invoice?parcelCode=DEMO000001`;
  const link = await measureInvoiceLink(invoiceUrl);
  await (
    await browser.newCDPSession(browser.pages()[0] ?? (await browser.newPage()))
  ).send('Network.clearBrowserCache');
  const invoiceScore = await measure('invoice page (signed in)', invoiceUrl);

  console.log(`
summary (goals in brackets)
  login page first-load script, brotli      ${kb(loginScriptBytes).padStart(9)}   (≤ ${kb(LOGIN_FIRST_LOAD_BUDGET_BYTES)}, asserted by test:production)
  login page script until network idle      ${kb(loginIdleBytes).padStart(9)}   (≤ ${kb(LOGIN_FIRST_LOAD_BUDGET_BYTES)}, asserted by test:e2e; goal 70 KB)
  invoice link to PDF frame, median         ${`${Math.round(link.cached)} ms`.padStart(9)}   (≤ 300 ms; HTTP cache cleared: ${Math.round(link.uncached)} ms)
  Lighthouse mobile performance, /login     ${String(loginScore).padStart(9)}   (≥ 98)
  Lighthouse mobile performance, invoice    ${String(invoiceScore).padStart(9)}   (≥ 95)
  machine load (1 min) ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`);
} finally {
  await browser.close();
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
