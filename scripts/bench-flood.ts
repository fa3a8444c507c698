// `npm run bench:flood`: what strangers calling the three calls anyone may make without signing in (look up,
// register, activate) cost everyone else. A signed-in person opens an invoice over and over, alone and then
// during each of two floods: 48 strangers from 1,000 client addresses (each address spends its allowance),
// and 48 strangers from 20,000 addresses, a new connection per call, so each address makes only a call or two
// and no per-address allowance is ever reached (a botnet: only the instance's anonymous budget stops it).
// Every 127.x.y.z is this machine's loopback, so each is a distinct client to nginx and the API.
// By default on the production topology (nginx in front of two compiled API instances on PostgreSQL), where it
// also counts PostgreSQL's commits (pg_stat_database xact_commit, less what the idle topology commits in the
// same time) during each flood, per refused call alone and per answered call of each kind; needs DATABASE_URL
// (its role must be allowed to create databases) and nginx. `--embedded`: on the embedded server instead (one
// compiled API process on PGlite, no proxy, as `npm start` runs it), where commits cannot be counted from
// outside. Targets: the person's p95 <= 100 ms with no failure, 0 commits per refused call, at most one per
// answered call. A tool for people, not a timed test: figures depend on the machine. `--no-build` reuses the
// last build. Options: FLOOD_SECONDS (20), FLOOD_STRANGERS (48), FLOOD_ADDRESSES (1000),
// FLOOD_BOTNET_ADDRESSES (20000).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  buildAll,
  DEMO_PROJECT_ID,
  findFreePort,
  freshDatabaseBeside,
  REPO_ROOT,
  requireNginx,
  startAuthEmulator,
  startTopology,
  stopChild,
  waitForHttp,
  type AuthEmulator,
} from '@portal/dev-stack';
import { makeBenchPdf, seedBenchUser, signUpForToken } from '@portal/dev-stack/bench';
import type { FloodPlan, FloodResult, Kind } from './lib/flood-strangers.ts';
import { runBench, type Cleanups } from './lib/run-bench.ts';

const FLOOD_SECONDS = Number(process.env.FLOOD_SECONDS ?? 20);
const STRANGERS = Number(process.env.FLOOD_STRANGERS ?? 48);
const ADDRESSES = Number(process.env.FLOOD_ADDRESSES ?? 1000);
const BOTNET_ADDRESSES = Number(process.env.FLOOD_BOTNET_ADDRESSES ?? 20_000);
const EMBEDDED = process.argv.includes('--embedded');
const QUIET_SECONDS = 10;
const LOOKUPS_PER_MINUTE = 20;
const PARCEL_CODE = 'FLOOD00001';
const EMAIL = 'flood-person@example.com';
const TARGET_P95_MS = 100;
/**
 * A backend reports its commits to the statistics at most once a second, and when it went idle too soon
 * after its last report, 10 s later (PostgreSQL 15's PGSTAT_IDLE_INTERVAL); the pool closes idle
 * connections after 10 s, which reports too.
 */
const STATS_SETTLE_MS = 11_500;

const cleanups: Cleanups = [];
const log = (line = '') => process.stdout.write(`${line}\n`);

/** What the person calls and the benchmark stops: the topology, or the embedded server. */
interface Server {
  url: string;
  stop(): Promise<void>;
}

/**
 * One compiled API process on PGlite, as `npm start` runs it (but on free ports, in `workDir`), with the
 * Auth emulator. The person's account and row are made before it starts: the embedded database has one
 * owner at a time.
 */
async function startEmbedded(workDir: string, env: Record<string, string>) {
  const emulator: AuthEmulator = await startAuthEmulator({
    port: await findFreePort(),
    projectId: DEMO_PROJECT_ID,
    workDir: path.join(workDir, 'emulator'),
  });
  try {
    const serverEnv: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(await findFreePort()),
      DATABASE_URL: '',
      DATA_DIR: path.join(workDir, 'data'),
      FIREBASE_PROJECT_ID: DEMO_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      ...env,
    };
    const person = await signUpForToken(emulator, EMAIL);
    await seedBenchUser(serverEnv, { email: EMAIL, uid: person.uid });
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(REPO_ROOT, 'apps/api/dist/server.js')], {
      cwd: REPO_ROOT,
      env: serverEnv,
      // Not this process's stdout: a server left behind by a killed run would hold a pipe reading it open.
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${serverEnv.PORT}`;
    const stop = async () => {
      await stopChild(child);
      await emulator.stop();
    };
    try {
      await waitForHttp(`${url}/api/readyz`, child, 'the embedded server');
    } catch (error) {
      await stop();
      throw error;
    }
    return { server: { url, stop } satisfies Server, idToken: person.idToken };
  } catch (error) {
    await emulator.stop();
    throw error;
  }
}

/** The strangers, in a child process: their event loop must not delay the person's answers here. */
function runStrangers(plan: FloodPlan): Promise<FloodResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/lib/flood-strangers.ts'), JSON.stringify(plan)],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the strangers' process exited with ${code}`));
      resolve(JSON.parse(output) as FloodResult);
    });
  });
}

interface PersonResult {
  latenciesMs: number[];
  failures: string[];
}

/** One person opening the invoice again and again, one at a time, with a short pause between. */
async function person(url: string, idToken: string, until: Promise<unknown>): Promise<PersonResult> {
  let done = false;
  void until.finally(() => (done = true));
  const result: PersonResult = { latenciesMs: [], failures: [] };
  while (!done) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/api/invoice?parcelCode=${PARCEL_CODE}`, {
        headers: { authorization: `Bearer ${idToken}` },
      });
      const bytes = await response.arrayBuffer();
      result.latenciesMs.push(performance.now() - started);
      if (response.status !== 200 || bytes.byteLength === 0) result.failures.push(`status ${response.status}`);
    } catch (error) {
      result.latenciesMs.push(performance.now() - started);
      result.failures.push((error as Error).message);
    }
    await sleep(20);
  }
  return result;
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function describePerson(label: string, result: PersonResult) {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  const figures = {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? NaN,
  };
  log(
    `${label.padEnd(26)} p50 ${figures.p50.toFixed(1).padStart(6)} ms   p95 ${figures.p95.toFixed(1).padStart(6)} ms` +
      `   max ${figures.max.toFixed(1).padStart(6)} ms   (${sorted.length} opened, ${result.failures.length} failed)`,
  );
  if (result.failures.length) log(`  failures: ${[...new Set(result.failures)].slice(0, 5).join('; ')}`);
  return figures;
}

/** PostgreSQL's commit counter for the benchmark's database, once every backend has reported. */
async function commits(client: pg.Client, database: string): Promise<number> {
  await sleep(STATS_SETTLE_MS);
  const { rows } = await client.query<{ commits: string }>(
    'select xact_commit::text as commits from pg_stat_database where datname = $1',
    [database],
  );
  return Number(rows[0]?.commits ?? NaN);
}

/** Commits during `run`, less those the idle topology makes in the same time (timers, sweeps). */
async function commitsDuring<T>(
  stats: { client: pg.Client; database: string; idlePerMs: number },
  run: () => Promise<T>,
) {
  const before = await commits(stats.client, stats.database);
  const started = performance.now();
  const value = await run();
  const elapsedMs = performance.now() - started + STATS_SETTLE_MS;
  const after = await commits(stats.client, stats.database);
  return { value, commits: Math.max(0, after - before - stats.idlePerMs * elapsedMs), raw: after - before };
}

/** Waits until the current one-minute window has at least `seconds` left, so a phase stays inside one. */
async function awaitWindowRoom(seconds: number) {
  const left = 60 - (Date.now() % 60_000) / 1000;
  if (left < seconds) await sleep((left + 0.5) * 1000);
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!EMBEDDED) {
    try {
      requireNginx();
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 69;
    }
    if (!databaseUrl) {
      process.stderr.write(
        'bench:flood needs DATABASE_URL (PostgreSQL; its role must be allowed to create databases), or --embedded.\n',
      );
      return 78;
    }
  }
  if (!process.argv.includes('--no-build')) buildAll();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-flood-'));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const ingestToken = randomBytes(32).toString('base64url');
  const env = {
    INGEST_TOKEN: ingestToken,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOOKUPS_PER_MINUTE: String(LOOKUPS_PER_MINUTE),
    // The person opens the invoice hundreds of times here: the per-user allowance would end the run.
    RATE_LIMIT_DOWNLOADS_PER_HOUR: '1000000000',
    SHUTDOWN_GRACE_MS: '0',
  };

  let server: Server;
  let idToken: string;
  let stats: { client: pg.Client; database: string; idlePerMs: number } | undefined;
  if (EMBEDDED) {
    log('starting the embedded server (auth emulator, 1 API process on PGlite)...');
    ({ server, idToken } = await startEmbedded(workDir, env));
    cleanups.push(() => server.stop());
  } else {
    const benchUrl = await freshDatabaseBeside(databaseUrl!, 'flood');
    log('starting the topology (auth emulator, 2 API instances, nginx)...');
    const topology = await startTopology({
      port: await findFreePort(),
      instances: 2,
      databaseUrl: benchUrl,
      workDir,
      env,
    });
    server = topology;
    cleanups.push(() => topology.stop());
    const person = await signUpForToken(topology.emulator, EMAIL);
    idToken = person.idToken;
    await seedBenchUser(topology.env, { email: EMAIL, uid: person.uid });
    const statsClient = new pg.Client({ connectionString: databaseUrl });
    await statsClient.connect();
    cleanups.push(() => statsClient.end());
    stats = { client: statsClient, database: new URL(benchUrl).pathname.slice(1), idlePerMs: 0 };
  }
  const stored = await fetch(`${server.url}/api/invoices/${PARCEL_CODE}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ingestToken}`, 'content-type': 'application/pdf' },
    body: new Uint8Array(await makeBenchPdf(PARCEL_CODE, 100 * 1024)),
  });
  if (!stored.ok) throw new Error(`storing the PDF failed: ${stored.status} ${await stored.text()}`);

  const loadAtStart = os.loadavg().map((value) => value.toFixed(1));
  log(`${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); load average ${loadAtStart.join(' ')}`);
  log('warming up...');
  await person(server.url, idToken, sleep(2000));

  log(`the person alone, ${QUIET_SECONDS} s...`);
  const quiet = await person(server.url, idToken, sleep(QUIET_SECONDS * 1000));

  if (stats) {
    // What the idle topology commits by itself (flush timers, sweeps): taken off every count below.
    const idleWindowMs = 10_000;
    const idleBefore = await commits(stats.client, stats.database);
    const idleStarted = performance.now();
    await sleep(idleWindowMs);
    const idleAfter = await commits(stats.client, stats.database);
    stats.idlePerMs = (idleAfter - idleBefore) / (performance.now() - idleStarted);
  }
  const counted = stats;
  /** The commits during `run` on the topology; on the embedded server they cannot be counted (NaN). */
  const measured = <T>(run: () => Promise<T>) =>
    counted ? commitsDuring(counted, run) : run().then((value) => ({ value, commits: NaN, raw: NaN }));

  const shapes = [
    { label: `${STRANGERS} strangers from ${ADDRESSES} addresses`, block: 1, addresses: ADDRESSES, perCall: false },
    {
      label: `${STRANGERS} strangers from ${BOTNET_ADDRESSES} addresses (botnet)`,
      block: 5,
      addresses: BOTNET_ADDRESSES,
      perCall: true,
    },
  ] as const;
  const floods = [];
  for (const shape of shapes) {
    log(`${shape.label} for ${FLOOD_SECONDS} s, the person meanwhile...`);
    const flooded = await measured(async () => {
      const strangers = runStrangers({
        url: server.url,
        concurrency: STRANGERS,
        seconds: FLOOD_SECONDS,
        addresses: { block: shape.block, count: shape.addresses },
        tag: `flood-${shape.block}`,
        connectionPerCall: shape.perCall,
      });
      const during = await person(server.url, idToken, strangers);
      return { strangers: await strangers, during };
    });
    floods.push({ shape, flooded, loadAfter: os.loadavg()[0]! });
  }

  // Refused calls alone: a few addresses spend their allowance, then call on, all refused, in one window.
  let refusedPhase;
  let spent;
  const answeredPhases = {} as Record<Kind, Awaited<ReturnType<typeof commitsDuring<FloodResult>>>>;
  if (counted) {
    log('commits per refused call...');
    const spenders = { block: 2, count: 16 };
    await awaitWindowRoom(40);
    spent = await runStrangers({
      url: server.url,
      concurrency: spenders.count,
      seconds: 30,
      addresses: spenders,
      kinds: ['lookup'],
      // Until every one has spent its allowance: the instances' anonymous budget refuses some on the way.
      maxAnswered: spenders.count * LOOKUPS_PER_MINUTE,
      tag: 'spend',
    });
    refusedPhase = await commitsDuring(counted, () =>
      runStrangers({ url: server.url, concurrency: 16, seconds: 8, addresses: spenders, tag: 'refused' }),
    );

    // Answered calls alone, kind by kind: each from a fresh address, well inside its allowance.
    log('commits per answered call...');
    for (const [index, kind] of (['lookup', 'register', 'activate'] as const).entries()) {
      answeredPhases[kind] = await commitsDuring(counted, () =>
        runStrangers({
          url: server.url,
          concurrency: 8,
          seconds: 30,
          addresses: { block: 3 + index, count: 300 },
          kinds: [kind],
          maxCalls: 300,
          tag: kind,
        }),
      );
    }
  }

  log('');
  log(
    EMBEDDED
      ? `embedded server (1 process, PGlite); RATE_LIMIT_LOOKUPS_PER_MINUTE=${LOOKUPS_PER_MINUTE}`
      : `PostgreSQL, 2 API instances behind nginx; RATE_LIMIT_LOOKUPS_PER_MINUTE=${LOOKUPS_PER_MINUTE}`,
  );
  log(
    `load average at the start ${loadAtStart.join(' ')}; after each flood ${floods.map((f) => f.loadAfter.toFixed(1)).join(', ')}`,
  );
  const quietFigures = describePerson('person alone', quiet);
  let met = true;
  for (const { shape, flooded } of floods) {
    log(`${shape.label}:`);
    const floodFigures = describePerson('  person during the flood', flooded.value.during);
    const flood = flooded.value.strangers;
    const commitFigures = counted
      ? `; ${flooded.commits.toFixed(0)} commits (${(flooded.commits / Math.max(1, flood.calls)).toFixed(2)} per call; ` +
        `${(flooded.commits / Math.max(1, flood.refused)).toFixed(3)} per refused call at most, every commit counted against them)`
      : '';
    log(
      `  flood: ${flood.calls} calls (${(flood.calls / FLOOD_SECONDS).toFixed(0)}/s): ${flood.answered} answered, ` +
        `${flood.refused} refused, ${flood.failed} failed${commitFigures}`,
    );
    if (flood.failures.length) log(`  failures: ${flood.failures.join('; ')}`);
    met &&= floodFigures.p95 <= TARGET_P95_MS && flooded.value.during.failures.length === 0;
  }
  let refusedPerCall = 0;
  if (refusedPhase && spent) {
    const refused = refusedPhase.value;
    refusedPerCall = refusedPhase.commits / Math.max(1, refused.refused);
    log(
      `refused calls: ${refused.refused} refused (${refused.answered} answered, ${refused.failed} failed) after ` +
        `${spent.answered} spent the allowance; ${refusedPhase.commits.toFixed(1)} commits: ` +
        `${refusedPerCall.toFixed(3)} per refused call`,
    );
    for (const [kind, phase] of Object.entries(answeredPhases)) {
      log(
        `answered ${kind.padEnd(8)}: ${phase.value.answered} answered (${phase.value.refused} refused, ` +
          `${phase.value.failed} failed); ${phase.commits.toFixed(1)} commits: ` +
          `${(phase.commits / Math.max(1, phase.value.answered)).toFixed(2)} per call`,
      );
    }
    log(`idle topology: ${(counted!.idlePerMs * 1000).toFixed(2)} commits/s (taken off the counts above)`);
    met &&= refusedPerCall < 0.01;
  }
  log(
    `target: the person's p95 <= ${TARGET_P95_MS} ms with no failure during both floods` +
      `${counted ? ', 0 commits per refused call' : ''}: ${met ? 'met' : 'NOT met'}`,
  );
  log(`(the person alone: p95 ${quietFigures.p95.toFixed(1)} ms)`);
  return 0;
}

await runBench('bench:flood', cleanups, main);
