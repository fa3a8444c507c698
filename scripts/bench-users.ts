// `npm run bench:users`: seeds 100,000 allowed users and times GET /api/users over real HTTP: the whole
// list (what the spec's screen asks for) and single pages, searched and not. Runs on PGlite, then on
// PostgreSQL when DATABASE_URL is set (in a scratch database it creates and drops: your data is never
// touched). Prints median and p95 per call, and the median CPU time this process spent on it: API, HTTP
// client and, for PGlite, the database, so on a busy machine it shows what the call costs unloaded.
// Target: a searched page under 50 ms at the API.
// Options: BENCH_USERS (default 100000), BENCH_RUNS (default 30), BENCH_EXPLAIN=1 prints the query plans.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createApp } from '@portal/api/app.ts';
import { loadConfig } from '@portal/api/config.ts';
import type { DatabaseHandle, DatabaseTarget } from '@portal/api/db/client.ts';
import { InvalidTokenError, type IdentityProvider } from '@portal/api/identity/identity-provider.ts';
import { buildDomain, withDomain } from '@portal/api/domain.ts';
import { openInfrastructure } from '@portal/api/infrastructure.ts';
import { createLogger } from '@portal/api/observability/logging.ts';
import { buildWeb, demoAccount, findFreePort, startStack } from '@portal/dev-stack';
import { createSoftwareAuthenticator, enrollPasskey, httpPortalSession } from '@portal/dev-stack/passkeys';
import { formatAdminFirstRows, measureAdminFirstRows } from './lib/admin-first-rows.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TARGET_SEARCH_MS = 50;
const ADMIN = 'bench-admin@example.com';
const TOKEN = 'bench-admin-token';
/** The bench admin's headers: the bearer token, and once confirmed, the step-up secret. */
let adminHeaders: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
const requireCode = (enrollment: { code: string } | undefined) => {
  if (!enrollment) throw new Error('the demo seed issued no enrollment code for the demo admin');
  return enrollment.code;
};
/** When the bench admin "signed in": the step-up it does below is bound to it. */
const SIGNED_IN_AT_MS = Math.floor(Date.now() / 1000) * 1000;

/** name, query, runs: the whole list is megabytes, so it gets fewer runs. */
const CALLS: [string, string, number][] = [
  ['all users (no parameters)', '', Math.min(RUNS, 10)],
  ['first page (limit 50)', '?limit=50', RUNS],
  ['deep page (offset 99,000)', '?limit=50&offset=99000', RUNS],
  ['search "anna", page 1', '?search=anna&limit=50', RUNS],
  ['search "weber7", page 3', '?search=weber7&limit=50&offset=100', RUNS],
  ['search "olivia.evans1234"', '?search=olivia.evans1234&limit=50', RUNS],
  ['search "zz" (no match)', '?search=zz&limit=50', RUNS],
  ['search ".co.uk", page 1', '?search=.co.uk&limit=50', RUNS],
  ['newest first, page 1', '?sort=-added&limit=50', RUNS],
  ['oldest first, page 20', '?sort=added&limit=50&offset=950', RUNS],
  ['invited, newest first', '?status=invited&sort=-added&limit=50', RUNS],
];
const SEARCHED = (name: string) => name.startsWith('search');

const log = (line = '') => process.stdout.write(`${line}\n`);

/** The benchmark measures the API, not the identity provider: one fixed token stands for an admin. */
const benchIdentity: IdentityProvider = {
  async verifyIdToken(token) {
    if (token !== TOKEN) throw new InvalidTokenError('invalid');
    return {
      uid: 'bench-admin',
      email: ADMIN,
      expiresAtMs: Date.now() + 3_600_000,
      authTimeMs: SIGNED_IN_AT_MS,
      signInProvider: 'password',
      tenant: undefined,
      emailVerified: true,
      providerSubject: undefined,
    };
  },
  createUser: () => Promise.reject(new Error('not used by the benchmark')),
  findUserByEmail: () => Promise.resolve(undefined),
  deleteUser: () => Promise.resolve(),
  revokeSessions: () => Promise.resolve(),
  hasPassword: () => Promise.resolve(true),
  markEmailVerified: () => Promise.resolve(),
};

const FIRST = [
  'anna',
  'ben',
  'chloe',
  'david',
  'emma',
  'felix',
  'grace',
  'harry',
  'isla',
  'jack',
  'kate',
  'liam',
  'mia',
  'noah',
  'olivia',
  'peter',
  'ruby',
  'sam',
  'tom',
  'zoe',
];
const LAST = [
  'smith',
  'jones',
  'taylor',
  'brown',
  'williams',
  'wilson',
  'johnson',
  'davies',
  'robinson',
  'wright',
  'thompson',
  'evans',
  'walker',
  'white',
  'roberts',
  'green',
  'hall',
  'wood',
  'jackson',
  'clarke',
  'weber',
  'muller',
  'schmidt',
  'dubois',
  'martin',
];
const DOMAINS = ['example.com', 'parcels.co.uk', 'depot.de', 'carrier.fr', 'logistics.nl'];
const pgArray = (values: string[]) => sql.raw(`array[${values.map((value) => `'${value}'`).join(',')}]`);

/** One INSERT ... SELECT: the database generates the rows, nothing crosses the wire per row. */
async function seed(database: DatabaseHandle) {
  const started = performance.now();
  await database.db.execute(sql`
    insert into users (email, admin, activated, registered, created_by, created_at)
    select (${pgArray(FIRST)})[1 + i % ${FIRST.length}] || '.' || (${pgArray(LAST)})[1 + (i / ${FIRST.length}) % ${LAST.length}]
             || i || '@' || (${pgArray(DOMAINS)})[1 + i % ${DOMAINS.length}],
           false, i % 3 <> 0, true, 'bench seed', now() - make_interval(mins => i)
    from generate_series(1, ${USERS}) as i`);
  await database.db.execute(
    sql`insert into users (email, admin, activated, registered, firebase_uid) values (${ADMIN}, true, true, true, 'bench-admin')`,
  );
  await database.db.execute(sql`analyze users`);
  return performance.now() - started;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { median: at(0.5), p95: at(0.95) };
}

async function timeCall(baseUrl: string, query: string, runs: number) {
  const url = `${baseUrl}/api/users${query}`;
  const get = async () => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const response = await fetch(url, { headers: adminHeaders });
    const body = await response.arrayBuffer();
    if (response.status !== 200)
      throw new Error(`GET ${url} answered ${response.status}: ${Buffer.from(body).toString()}`);
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    return {
      ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      bytes: body.byteLength,
      total: response.headers.get('x-total-count'),
    };
  };
  for (let i = 0; i < 2; i++) await get(); // warm caches and the JIT, as a running server would be
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await get());
  const last = results.at(-1);
  return {
    ...stats(results.map((result) => result.ms)),
    cpuMedian: stats(results.map((result) => result.cpuMs)).median,
    bytes: last?.bytes ?? 0,
    total: last?.total ?? '?',
  };
}

/** The plans of the queries repositories/users-list.ts sends for a searched page and a deep page. */
async function explain(database: DatabaseHandle) {
  const queries: [string, string][] = [
    ['count of a search', `select count(*) from users where email like '%weber7%'`],
    [
      'page of few matches (<= 5,000)',
      `with matches as materialized (select email from users where email like '%weber7%')
       select email from matches order by email limit 50 offset 100`,
    ],
    ['page of many matches', `select email from users where email like '%.co.uk%' order by email limit 50`],
    ['last page, read from the end', `select email from users order by email desc limit 50 offset 951`],
  ];
  for (const [label, query] of queries) {
    const result = (await database.db.execute(
      sql.raw(`explain (analyze, costs off, timing off, summary off) ${query}`),
    )) as unknown as {
      rows: { 'QUERY PLAN': string }[];
    };
    log(`  plan, ${label}:`);
    for (const row of result.rows) log(`    ${row['QUERY PLAN']}`);
  }
}

const benchConfig = (dataDir: string) =>
  loadConfig({
    FIREBASE_PROJECT_ID: 'demo-portal-bench',
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9', // never contacted: benchIdentity answers instead
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
  });

async function benchTarget(label: string, target: DatabaseTarget) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-users-'));
  const config = benchConfig(dataDir);
  const infrastructure = await openInfrastructure(config, {
    databaseTarget: target,
    wrapIdentity: () => benchIdentity,
  });
  const { database } = infrastructure;
  const logger = createLogger(config);
  const domain = buildDomain(infrastructure, { log: logger });
  await domain.start();
  const app = await createApp(domain, logger);
  try {
    const seedMs = await seed(database);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    // Admin calls need the admin's passkey confirmation: set up through the real endpoints, as a first visit
    // with the code an operator would issue; the calls measured then carry the ceremony's secret.
    const { code } = await domain.passkeys.issueEnrollmentCode({ email: ADMIN, actor: 'cli:bench' });
    const session = httpPortalSession(address, TOKEN);
    await enrollPasskey(session.call, createSoftwareAuthenticator({ origin: address }), { enrollmentCode: code });
    adminHeaders = session.headers();
    log(
      `\n${label}: seeded ${USERS.toLocaleString('en')} users in ${(seedMs / 1000).toFixed(1)} s; ${RUNS} runs per page`,
    );
    log(
      `  ${'call'.padEnd(30)} ${'median'.padStart(9)} ${'p95'.padStart(9)} ${'cpu'.padStart(9)} ${'total'.padStart(8)} ${'bytes'.padStart(11)}`,
    );
    let worstSearch = 0;
    for (const [name, query, runs] of CALLS) {
      const result = await timeCall(address, query, runs);
      if (SEARCHED(name)) worstSearch = Math.max(worstSearch, result.p95);
      log(
        `  ${name.padEnd(30)} ${`${result.median.toFixed(1)} ms`.padStart(9)} ${`${result.p95.toFixed(1)} ms`.padStart(9)} ${`${result.cpuMedian.toFixed(1)} ms`.padStart(9)} ${result.total.padStart(8)} ${result.bytes.toLocaleString('en').padStart(11)}`,
      );
    }
    log(
      `  searched page p95 ${worstSearch.toFixed(1)} ms: ${worstSearch < TARGET_SEARCH_MS ? 'within' : 'OVER'} the ${TARGET_SEARCH_MS} ms target`,
    );
    if (process.env.BENCH_EXPLAIN === '1') await explain(database);
    return worstSearch < TARGET_SEARCH_MS;
  } finally {
    await app.close();
    await domain.close();
    await infrastructure.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A scratch database beside the one in DATABASE_URL, so the benchmark never truncates real data. */
async function withScratchPostgres<T>(url: string, run: (scratchUrl: string) => Promise<T>): Promise<T | undefined> {
  const name = `portal_bench_users_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } catch (error) {
    log(
      `\nPostgreSQL: skipped, could not create a scratch database (${(error as Error).message}); the role needs CREATEDB.`,
    );
    await admin.end();
    return undefined;
  }
  try {
    const scratch = new URL(url);
    scratch.pathname = `/${name}`;
    return await run(scratch.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const results = [await benchTarget('PGlite (embedded)', { kind: 'pglite' })];
if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  results.push(
    (await withScratchPostgres(url, (scratchUrl) =>
      benchTarget('PostgreSQL', { kind: 'postgres', url: scratchUrl }),
    )) ?? true,
  );
} else {
  log('\nPostgreSQL: skipped (set DATABASE_URL to include it).');
}
results.push(await benchAdminScreen());
process.exitCode = results.every(Boolean) ? 0 : 1;

/**
 * The admin screen in Chromium against the whole stack (`npm start`'s, on free ports) with the same
 * users seeded into its embedded database: from navigation to /admin until the first rows are drawn.
 */
async function benchAdminScreen(): Promise<boolean> {
  log(`\nAdmin screen in Chromium, ${USERS.toLocaleString('en-GB')} users on PGlite`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-screen-'));
  try {
    await withDomain(benchConfig(dataDir), ({ database }) => seed(database));
    await buildWeb();
    const stack = await startStack({ port: await findFreePort(), emulatorPort: await findFreePort(), dataDir });
    try {
      const result = await measureAdminFirstRows({
        portalUrl: stack.url,
        ...demoAccount('admin@example.com'),
        enrollmentCode: requireCode(stack.demoAdminEnrollment),
        warmRuns: 5,
        searchTerm: 'anna.weber4242',
      });
      for (const line of formatAdminFirstRows(result)) log(`  ${line}`);
      return true;
    } finally {
      await stack.stop();
    }
  } catch (error) {
    log(`  not measured: ${(error as Error).message}`);
    return false;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
