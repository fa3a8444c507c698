// The admin screen's time to first rows, measured in Chromium against a running portal (the API serving
// the built SPA, signed in through the real login screen). Used by `npm run bench:users`; also runnable:
//   npx tsx scripts/lib/admin-first-rows.ts <portal-url> <admin-email> <admin-password> <enrollment-code> [runs]
// The admin must have no passkey yet (a fresh stack, or one reset with `users reset-passkeys`), and the code is
// their one-time enrollment code (npm start's banner, or `users enrollment-code`): a passkey is set up for the
// signed-in page before the measured visits.
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumExecutable } from '@portal/dev-stack';
import {
  createSoftwareAuthenticator,
  enrollPasskey,
  httpPortalSession,
  STEP_UP_COOKIE,
  STEP_UP_HEADER,
} from '@portal/dev-stack/passkeys';

export interface AdminFirstRowsOptions {
  /** Where the portal runs, e.g. http://localhost:8080 (the SPA at `/`, the API under `/api`). */
  portalUrl: string;
  email: string;
  password: string;
  /** The admin's one-time code for their first passkey. */
  enrollmentCode: string;
  /** Visits measured after the first (cold) one; default 5. */
  warmRuns?: number;
  /** A search to time as well (typed into the screen's search box); none by default. */
  searchTerm?: string;
  /** Default: CHROMIUM_PATH, else /usr/bin/chromium. */
  executablePath?: string;
}

export interface AdminFirstRowsVisit {
  /** Navigation start → the first user rows painted. */
  firstRowsMs: number;
  /** Navigation start → the account lookup's answer, and → the list call's answer (resource timing). */
  lookupDoneMs: number | undefined;
  listDoneMs: number | undefined;
  /** How long the list call took on the wire. */
  listCallMs: number | undefined;
}

export interface AdminFirstRowsResult {
  /** The first visit after signing in: the admin chunk is not in the browser cache yet. */
  cold: AdminFirstRowsVisit;
  warm: AdminFirstRowsVisit[];
  medianWarmMs: number;
  /** Rows on the first page, and the total the pager shows. */
  rowsShown: number;
  totalShown: string;
  /** Last keystroke → the matching rows painted; includes the screen's 300 ms search debounce. */
  searchMs?: number;
}

/** The screen's users table (features/admin/components/UsersTable.tsx, USERS_TABLE_LABEL). */
const TABLE = 'table[aria-label="Allowed users"]';

/**
 * Runs in the page before the app: notes (relative to navigation start) the frame after the first data row
 * appears, so the figure covers config, sign-in restore, lookup, list call and rendering, not polling.
 */
function watchForFirstRows(selector: string) {
  const target = window as unknown as { __adminFirstRowsMs?: number };
  const observer = new MutationObserver(() => {
    if (!document.querySelector(`${selector} tbody tr td + td`)) return;
    observer.disconnect();
    requestAnimationFrame(() => (target.__adminFirstRowsMs = performance.now()));
  });
  observer.observe(document, { childList: true, subtree: true });
}

async function visitAdmin(page: Page, portalUrl: string): Promise<AdminFirstRowsVisit> {
  await page.goto(`${portalUrl}/admin`);
  await page.waitForFunction(() => (window as { __adminFirstRowsMs?: number }).__adminFirstRowsMs !== undefined, null, {
    timeout: 60_000,
  });
  // No named helpers inside: tsx would wrap them in a `__name` call that does not exist in the page.
  return page.evaluate(() => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const lookup = resources.find((entry) => new URL(entry.name).pathname.startsWith('/api/users/'));
    const list = resources.find((entry) => new URL(entry.name).pathname === '/api/users');
    return {
      firstRowsMs: (window as { __adminFirstRowsMs?: number }).__adminFirstRowsMs!,
      lookupDoneMs: lookup?.responseEnd,
      listDoneMs: list?.responseEnd,
      listCallMs: list ? list.responseEnd - list.startTime : undefined,
    };
  });
}

/**
 * The passkey step before the list (decision 0044), done from Node with the page's own sign-in: a software
 * authenticator sets up the admin's passkey through the portal's endpoints, which confirms that sign-in. The
 * first measured visit thus still loads the admin screen's code cold, and every visit shows what an admin sees
 * within the confirmation's ten minutes.
 */
async function passPasskeyStep(page: Page, portalUrl: string, enrollmentCode: string) {
  const idToken = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => name.startsWith('firebase:authUser:'));
    const user = JSON.parse(localStorage.getItem(key ?? '') ?? 'null') as {
      stsTokenManager?: { accessToken?: string };
    } | null;
    return user?.stsTokenManager?.accessToken ?? '';
  });
  // The ceremony's secret confirms the browser holding it: it goes into the page's cookies, where the page's
  // own ceremony would have put it.
  const session = httpPortalSession(portalUrl, idToken);
  await enrollPasskey(session.call, createSoftwareAuthenticator({ origin: portalUrl }), { enrollmentCode });
  const secret = session.headers()[STEP_UP_HEADER];
  if (!secret) throw new Error('setting up the passkey answered no step-up secret');
  await page
    .context()
    .addCookies([{ name: STEP_UP_COOKIE, value: secret, url: `${portalUrl}/api`, httpOnly: true, sameSite: 'Strict' }]);
}

async function timeSearch(page: Page, term: string): Promise<number> {
  const search = page.getByLabel('Search by email');
  await search.fill(term.slice(0, -1));
  const started = Date.now();
  await search.press(term.slice(-1));
  await page.waitForFunction(
    ({ selector, term }) => {
      const cells = [...document.querySelectorAll(`${selector} tbody tr td:first-child`)];
      return cells.length > 0 && cells.every((cell) => (cell.textContent ?? '').includes(term));
    },
    { selector: TABLE, term },
    { timeout: 30_000 },
  );
  return Date.now() - started;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function measureAdminFirstRows(options: AdminFirstRowsOptions): Promise<AdminFirstRowsResult> {
  const portalUrl = options.portalUrl.replace(/\/$/, '');
  const browser = await chromium.launch({
    executablePath: options.executablePath ?? chromiumExecutable(),
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(watchForFirstRows, TABLE);

    // Signed in once through the login screen; Firebase keeps the session for the visits that follow.
    await page.goto(`${portalUrl}/login`);
    await page.getByLabel('Email address').fill(options.email);
    await page.getByLabel('Password').fill(options.password);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 30_000 });
    await passPasskeyStep(page, portalUrl, options.enrollmentCode);

    const cold = await visitAdmin(page, portalUrl);
    const warm: AdminFirstRowsVisit[] = [];
    for (let run = 0; run < (options.warmRuns ?? 5); run++) warm.push(await visitAdmin(page, portalUrl));
    const rowsShown = await page.locator(`${TABLE} tbody tr`).count();
    const totalShown =
      (await page.getByRole('navigation', { name: 'users pages' }).locator('span').first().textContent())?.trim() ?? '';
    const searchMs = options.searchTerm ? await timeSearch(page, options.searchTerm) : undefined;
    return {
      cold,
      warm,
      medianWarmMs: median(warm.map((visit) => visit.firstRowsMs)),
      rowsShown,
      totalShown,
      ...(searchMs === undefined ? {} : { searchMs }),
    };
  } finally {
    await browser.close();
  }
}

/** One line per visit, for a benchmark's report. */
export function formatAdminFirstRows(result: AdminFirstRowsResult): string[] {
  const ms = (value: number | undefined) => (value === undefined ? '?' : `${value.toFixed(0)} ms`);
  const line = (label: string, visit: AdminFirstRowsVisit) =>
    `${label.padEnd(8)} first rows ${ms(visit.firstRowsMs).padStart(7)}  (lookup done ${ms(visit.lookupDoneMs)}, ` +
    `list done ${ms(visit.listDoneMs)}, list call ${ms(visit.listCallMs)})`;
  return [
    line('cold', result.cold),
    ...result.warm.map((visit, index) => line(`warm ${index + 1}`, visit)),
    `median warm first rows: ${ms(result.medianWarmMs)}; ${result.rowsShown} rows shown, pager "${result.totalShown}"`,
    ...(result.searchMs === undefined
      ? []
      : [`search, last key → matching rows: ${ms(result.searchMs)} (300 ms debounce included)`]),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [portalUrl, email, password, enrollmentCode, runs] = process.argv.slice(2);
  if (!portalUrl || !email || !password || !enrollmentCode) {
    process.stderr.write(
      'usage: tsx scripts/lib/admin-first-rows.ts <portal-url> <admin-email> <admin-password> <enrollment-code> [runs]\n',
    );
    process.exit(2);
  }
  const result = await measureAdminFirstRows({
    portalUrl,
    email,
    password,
    enrollmentCode,
    warmRuns: runs ? Number(runs) : undefined,
  });
  for (const line of formatAdminFirstRows(result)) process.stdout.write(`${line}\n`);
}
