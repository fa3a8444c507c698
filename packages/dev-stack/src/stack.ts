/**
 * The whole portal on this machine: the Auth emulator, the demo data, then the API serving the built SPA.
 * `npm start` runs it on the well-known ports with the compiled API and builds skipped when unchanged;
 * the e2e suite on free ports with a throwaway data folder; `npm run dev` with the API in watch mode
 * behind Vite's dev server.
 *
 * What does not depend on something else runs at once: the builds, the emulator's start and the
 * database's part of the seed (a process of its own) overlap; the API starts as soon as the seed has let go of
 * the embedded database and its own build is there, at the very start when there is nothing to seed or build,
 * and while the SPA is still being built (the API serves the SPA once its build is in place). The stack is
 * ready when the API answers and the SPA's build is done (decision 0127).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startAuthEmulator, type AuthEmulator } from './auth-emulator.ts';
import { buildApi, buildWeb } from './builds.ts';
import { stopChild, waitForHttp } from './child-process.ts';
import type { DemoSeed } from './demo/seed.ts';
import { NODE_COMPILE_CACHE, REPO_ROOT } from './paths.ts';

export { REPO_ROOT } from './paths.ts';
export const DEMO_PROJECT_ID = 'demo-parcel-portal';

export interface StackOptions {
  port: number;
  emulatorPort: number;
  dataDir: string;
  /** Extra environment for the API (e.g. SENTRY_DSN, rate limits). */
  env?: Record<string, string>;
  /** Where the API's log lines go; they are dropped when absent. */
  log?: (line: string) => void;
  /** Keep the emulator's accounts in DATA_DIR/auth-emulator between runs (npm start). */
  persistAccounts?: boolean;
  /**
   * How the API runs: from its TypeScript sources through tsx (default), restarted on every change of them
   * (`watch`, npm run dev), from its sources on Node's own type stripping, with neither tsx nor a build
   * (`native`, npm start: as quick to start as the bundle, decision 0127), or from apps/api/dist, compiled first
   * when its sources changed (`compiled`).
   */
  api?: 'source' | 'watch' | 'native' | 'compiled';
  /**
   * Build the SPA first when its sources changed since the last build (alongside everything else);
   * `precompress-later` (npm start): ready once Vite has written it, its compressed twins written after.
   */
  buildWeb?: boolean | 'precompress-later';
  /**
   * `always` (default) runs the idempotent seed on every start; `when-missing` only when the data folder
   * lacks what an earlier seed made (demo/seed-record.ts), so a second start opens the database once.
   */
  seed?: 'always' | 'when-missing';
  /** Called as each step ends, with the time since this process started: `npm start --verbose` prints them. */
  onStep?: (step: string, ms: number, detail?: string) => void;
  /**
   * How long the Auth emulator and the API each may take to start (90 s and 60 s unless given): a second stack
   * started beside the browser tests' own needs longer on a busy machine.
   */
  readyTimeoutMs?: number;
  /** Called when the API exits without being asked to (a crash), so the caller can stop the rest. */
  onApiExit?: (code: number | null) => void;
}

export interface Stack {
  url: string;
  emulator: AuthEmulator;
  /**
   * The demo admin's one-time enrollment code for a first passkey (as the seed issued it, or the last seed
   * recorded it); undefined when the demo admin already had a passkey at that seed.
   */
  demoAdminEnrollment: { code: string; expiresAt: string } | undefined;
  /** The same for the demo finance user, whose Invoices page needs a passkey too. */
  demoFinanceEnrollment: { code: string; expiresAt: string } | undefined;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const step = <T>(name: string, work: Promise<T>, detail?: (result: T) => string | undefined): Promise<T> =>
    work.then((result) => {
      options.onStep?.(name, performance.now(), detail?.(result));
      return result;
    });
  await mkdir(options.dataDir, { recursive: true });
  const persistDir = options.persistAccounts ? path.join(options.dataDir, 'auth-emulator') : undefined;
  const emulatorHost = `127.0.0.1:${options.emulatorPort}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    FIREBASE_PROJECT_ID: DEMO_PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    DATABASE_URL: '',
    NODE_COMPILE_CACHE,
    ...options.env,
  };

  // Read first (a few small files): whether the demo data must be seeded decides how the API starts.
  const kept = await keptDemoData(options, persistDir, step);
  // Started together; each is awaited where it is needed. `settled` keeps a failure from going unhandled
  // while another step is awaited, and lets the clean-up below stop whatever did start.
  const emulatorStart = step(
    'auth emulator',
    startAuthEmulator({
      port: options.emulatorPort,
      projectId: DEMO_PROJECT_ID,
      workDir: path.join(options.dataDir, 'emulator'),
      ...(persistDir ? { persistDir } : {}),
      ...(options.readyTimeoutMs ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
    }),
  );
  const webBuild = options.buildWeb
    ? step('web build', buildWeb({ precompressLater: options.buildWeb === 'precompress-later' }), (outcome) => outcome)
    : undefined;
  const apiBuild = options.api === 'compiled' ? step('api build', buildApi(), (outcome) => outcome) : undefined;
  // From its sources the API seeds in its own process first: the API's modules and the embedded database
  // (its WebAssembly compiled, the database created) are loaded once instead of twice. Else a process of its own.
  const seedInApi = !kept && options.api === 'native';
  let api: ChildProcess | undefined = seedInApi ? spawnApi(options, env, { seedFirst: true }) : undefined;
  const seeded = kept
    ? Promise.resolve(kept)
    : step('demo data', seedFrom(api ?? spawnSeed(env), emulatorStart, seedInApi), () => 'seeded').then((seed) =>
        recorded(options, seed),
      );
  const settled = Promise.allSettled([emulatorStart, webBuild, apiBuild, seeded]);

  try {
    if (!api) {
      await Promise.all([apiBuild, seeded]);
      api = spawnApi(options, env);
    }
    pipeLines(api, options.log);
    const url = `http://localhost:${options.port}`;
    await Promise.all([
      step('api', waitForHttp(`${url}/api/readyz`, api, 'The API', options.readyTimeoutMs)),
      emulatorStart,
      webBuild,
      seeded,
    ]);
    const emulator = await emulatorStart;
    const { demoAdminEnrollment, demoFinanceEnrollment } = await seeded;
    const running = api;
    let stopping = false;
    running.once('exit', (code) => {
      if (!stopping) options.onApiExit?.(code);
    });
    return {
      url,
      emulator,
      demoAdminEnrollment,
      demoFinanceEnrollment,
      stop: async () => {
        stopping = true;
        await stopChild(running);
        await emulator.stop();
      },
    };
  } catch (error) {
    if (api) await stopChild(api);
    const [emulator] = await settled;
    if (emulator.status === 'fulfilled') await emulator.value.stop();
    throw error;
  }
}

type DemoEnrollments = Pick<Stack, 'demoAdminEnrollment' | 'demoFinanceEnrollment'>;

/** What the last seed recorded, when nothing it made has gone (`when-missing`); undefined when a seed is due. */
async function keptDemoData(
  options: StackOptions,
  persistDir: string | undefined,
  step: <T>(name: string, work: Promise<T>, detail?: (result: T) => string | undefined) => Promise<T>,
): Promise<DemoEnrollments | undefined> {
  const record = await import('./demo/seed-record.ts');
  if (options.seed === 'when-missing' && persistDir) {
    const missing = await record.missingDemoData(options.dataDir, persistDir);
    if (missing.length === 0) {
      await step('demo data', Promise.resolve(), () => 'nothing missing');
      return {
        demoAdminEnrollment: await record.recordedAdminEnrollment(options.dataDir),
        demoFinanceEnrollment: await record.recordedFinanceEnrollment(options.dataDir),
      };
    }
    options.log?.(`seeding the demo data: ${missing.join(', ')}`);
  }
  await record.forgetDemoSeed(options.dataDir);
  return undefined;
}

async function recorded(options: StackOptions, seed: DemoSeed): Promise<DemoEnrollments> {
  const record = await import('./demo/seed-record.ts');
  await record.recordDemoSeed(options.dataDir, seed);
  options.log?.('demo data seeded');
  return { demoAdminEnrollment: seed.adminEnrollment, demoFinanceEnrollment: seed.financeEnrollment };
}

/**
 * demo/seed-process.ts on its own, run by this Node on its own type stripping (whatever loads the caller's
 * TypeScript: tsx, Playwright; tsx's module resolution took about a second of CPU more).
 */
function spawnSeed(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [SEED_PROCESS], { cwd: REPO_ROOT, env, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
}
const SEED_PROCESS = path.join(import.meta.dirname, 'demo/seed-process.ts');

/**
 * What the seed in `child` (demo/seed-process.ts) made, once it has let go of the database: when it has exited,
 * or, seeding in the API's process (`inApi`), when it says so. The child is told when the emulator is ready,
 * and killed when the emulator does not start.
 */
function seedFrom(child: ChildProcess, emulatorStart: Promise<unknown>, inApi: boolean): Promise<DemoSeed> {
  let errors = '';
  if (!inApi) child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors = (errors + chunk).slice(-4000)));
  emulatorStart.then(
    () => child.connected && child.send('emulator ready'),
    () => child.kill('SIGKILL'),
  );
  return new Promise((resolve, reject) => {
    let seed: DemoSeed | undefined;
    child.on('message', (message: { seed?: DemoSeed }) => {
      seed = message.seed ?? seed;
      if (inApi && seed) resolve(seed);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0 && seed) resolve(seed);
      else
        reject(
          new Error(`The demo seed failed (${signal ?? `exit code ${code}`})${errors ? `:\n${errors.trim()}` : ''}`),
        );
    });
  });
}

/** The API's process; `seedFirst` (`native` only): demo/seed-process.ts seeds, then serves in the same process. */
function spawnApi(options: StackOptions, env: NodeJS.ProcessEnv, { seedFirst = false } = {}): ChildProcess {
  if (seedFirst) {
    return spawn(process.execPath, [SEED_PROCESS, '--then-serve'], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
  }
  const args =
    options.api === 'compiled'
      ? ['--enable-source-maps', path.join(REPO_ROOT, 'apps/api/dist/server.js')]
      : options.api === 'native'
        ? [path.join(REPO_ROOT, 'apps/api/src/server.ts')]
        : options.api === 'watch'
          ? [
              createRequire(import.meta.url).resolve('tsx/cli'),
              'watch',
              '--clear-screen=false',
              path.join(REPO_ROOT, 'apps/api/src/server.ts'),
            ]
          : ['--import', 'tsx', path.join(REPO_ROOT, 'apps/api/src/server.ts')];
  return spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function pipeLines(child: ChildProcess, log?: (line: string) => void) {
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) log?.(line);
    });
  }
}
