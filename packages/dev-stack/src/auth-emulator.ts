// Starts and stops the Firebase Auth emulator (firebase-tools) for `npm start`, the API tests and the
// Playwright global setup. One emulator per run: it takes seconds to start, so never start one per test.
// firebase-tools' AuthEmulator is started directly (auth-emulator-process.cjs), not through the `firebase`
// command line and its hub: a third of the CPU (decision 0127). Accounts are saved in firebase-tools' export
// layout, so a folder either of them wrote is read by the other.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { identityToolkit } from './identity-toolkit.ts';
import { NODE_COMPILE_CACHE } from './paths.ts';

export interface AuthEmulator {
  /** "127.0.0.1:PORT", the value for FIREBASE_AUTH_EMULATOR_HOST. */
  host: string;
  projectId: string;
  /** http://127.0.0.1:PORT */
  url: string;
  stop(): Promise<void>;
  clearAccounts(): Promise<void>;
}

export interface StartAuthEmulatorOptions {
  port: number;
  /** Must start with `demo-`: firebase-tools then never talks to a real project. */
  projectId: string;
  /** Folder the emulator runs in (what it writes lands there, not in the repository); created. */
  workDir: string;
  /** Receives every line the emulator prints. */
  log?: (line: string) => void;
  /**
   * Keeps the accounts across runs: imported from this folder at start when it holds an export, and
   * exported to it when the emulator stops (npm start, so people added in the portal can still sign in).
   */
  persistDir?: string;
  /** How long firebase-tools may take to start; 90 s unless a caller starts it beside a busy stack. */
  readyTimeoutMs?: number;
}

const FIREBASE_TOOLS = fileURLToPath(
  new URL('../../../tools/firebase-emulator/node_modules/firebase-tools/package.json', import.meta.url),
);
const EMULATOR_PROCESS = fileURLToPath(new URL('./auth-emulator-process.cjs', import.meta.url));
const LAZY_VALIDATION = fileURLToPath(new URL('./emulator-lazy-validation.cjs', import.meta.url));
const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 90_000;
const READY_POLL_MS = 250;
const STOP_GRACE_MS = 5_000;
// Saving the accounts takes firebase-tools seconds on a busy machine.
const EXPORT_TIMEOUT_MS = 30_000;
const EXPORT_ATTEMPTS = 3;
const OUTPUT_TAIL_LINES = 30;
/** What firebase-tools prints once every emulator has started and imported its data. */
const ALL_STARTED_LINE = 'All emulators ready';

export async function startAuthEmulator(options: StartAuthEmulatorOptions): Promise<AuthEmulator> {
  const { port, projectId, workDir } = options;
  assertOptions(port, projectId);
  // firebase-tools' own "port taken" check exits, but our readiness probe would first be answered by
  // whatever already listens there (often a leftover emulator), so refuse before spawning.
  await assertPortFree(port);
  // Where the emulator runs (and a crash's output would land), never the repository.
  await mkdir(workDir, { recursive: true });

  const startedAt = performance.now();
  const output = new OutputTail(OUTPUT_TAIL_LINES, options.log);
  const child = spawnEmulator(port, projectId, workDir, output, options.persistDir);
  const url = `http://${HOST}:${port}`;
  const persistDir = options.persistDir;
  const stop = once(async () => {
    if (!persistDir || hasExited(child)) return stopProcessGroup(child, STOP_GRACE_MS);
    // Saved by requests of our own, waited for, before the emulator is told to stop.
    try {
      await exportAccounts(url, projectId, persistDir);
    } finally {
      await stopProcessGroup(child, STOP_GRACE_MS);
    }
  });

  try {
    // An emulator with accounts to import answers before it has read them (they are imported through its own
    // API): a sign-in in between fails as if the account did not exist. Its closing line says done.
    await waitUntilReady(child, url, () => output.allStarted, options.readyTimeoutMs);
    await enableImprovedEmailPrivacy(url, projectId);
  } catch (error) {
    // Nothing to save from an emulator that never became ready.
    await stopProcessGroup(child, STOP_GRACE_MS);
    throw new Error(`${errorMessage(error)}\n--- last emulator output ---\n${output.text()}`, {
      cause: error,
    });
  }
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  options.log?.(`auth emulator ready on ${HOST}:${port} (project ${projectId}) after ${seconds} s`);

  return {
    host: `${HOST}:${port}`,
    projectId,
    url,
    stop,
    clearAccounts: () => identityToolkit(url).clearAccounts(projectId),
  };
}

/** A port that was free a moment ago on 127.0.0.1 (the kernel picks it, so collisions are unlikely). */
export async function findFreePort(): Promise<number> {
  const server = net.createServer();
  await listen(server, 0);
  const address = server.address();
  await closeServer(server);
  if (address === null || typeof address === 'string') throw new Error('could not read the bound port');
  return address.port;
}

function assertOptions(port: number, projectId: string): void {
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw new Error(`auth emulator: invalid port ${port}`);
  }
  // firebase-tools treats demo- ids as offline-only, and the API refuses any other id in emulator mode.
  if (!projectId.startsWith('demo-')) {
    throw new Error(`auth emulator: project id must start with "demo-" (got "${projectId}")`);
  }
  if (!existsSync(FIREBASE_TOOLS)) {
    throw new Error(`auth emulator: ${FIREBASE_TOOLS} is missing; run \`npm install\` in the repository root`);
  }
}

async function assertPortFree(port: number): Promise<void> {
  const server = net.createServer();
  try {
    await listen(server, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? 'is already in use' : `cannot be bound (${code ?? errorMessage(error)})`;
    throw new Error(
      `auth emulator: port ${port} on ${HOST} ${reason}; stop whatever listens there or pick another port`,
    );
  }
  await closeServer(server);
}

function listen(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: HOST, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/**
 * Writes every account and the project's configuration to `dir` in firebase-tools' export layout (what
 * `emulators:start --import` reads too): written beside it and swapped in, so a failed save leaves the last
 * one whole. A few tries: the first can time out on a busy machine.
 */
async function exportAccounts(url: string, projectId: string, dir: string): Promise<void> {
  const read = async (route: string) => {
    const response = await fetch(`${url}${route}`, {
      headers: { authorization: 'Bearer owner' },
      signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
    return response.text();
  };
  let problem = '';
  for (let attempt = 1; attempt <= EXPORT_ATTEMPTS; attempt++) {
    const staging = `${path.resolve(dir)}.${randomBytes(6).toString('hex')}.partial`;
    try {
      const accounts = await read(
        `/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:batchGet?maxResults=-1`,
      );
      const config = await read(`/emulator/v1/projects/${projectId}/config`);
      await mkdir(path.join(staging, 'auth_export'), { recursive: true });
      await writeFile(path.join(staging, 'auth_export', 'accounts.json'), accounts);
      await writeFile(path.join(staging, 'auth_export', 'config.json'), config);
      await writeFile(
        path.join(staging, 'firebase-export-metadata.json'),
        `${JSON.stringify({ version: 'parcel-invoice-portal', auth: { version: 'parcel-invoice-portal', path: 'auth_export' } })}\n`,
      );
      const previous = `${staging}.previous`;
      await rename(dir, previous).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      await rename(staging, dir);
      await rm(previous, { recursive: true, force: true });
      return;
    } catch (error) {
      problem = errorMessage(error);
      await rm(staging, { recursive: true, force: true });
    }
  }
  throw new Error(`auth emulator: could not save its accounts to ${dir} (${problem}); they are lost`);
}

// The emulator runs in its own process group (detached), so Ctrl-C in a terminal and the death of our
// process never reach it. A process 'exit' hook covers normal exits, but not SIGKILL (test runners and
// CI timeouts use it), so the group leader is this watchdog: it holds a pipe from us and kills its
// whole group when that pipe closes, which the kernel does however we die.
const WATCHDOG = `
const { spawn } = require('node:child_process');
const [preload, entry, ...args] = process.argv.slice(1);
const emulator = spawn(process.execPath, ['--require', preload, entry, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
process.stdin.on('end', () => process.kill(0, 'SIGKILL')).resume();
// stop() signals the whole group: the emulator closes its server and we exit right after it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
emulator.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
`;

function spawnEmulator(
  port: number,
  projectId: string,
  workDir: string,
  output: OutputTail,
  persistDir?: string,
): ChildProcess {
  const env: NodeJS.ProcessEnv = { NODE_COMPILE_CACHE, ...process.env, CI: '1', NO_UPDATE_NOTIFIER: '1' };
  // Experiments change emulator behaviour; tests must see the defaults.
  delete env.FIREBASE_CLI_EXPERIMENTS;
  // firebase-tools reads it as the emulator to talk to (another one, in the API tests).
  delete env.FIREBASE_AUTH_EMULATOR_HOST;
  // The saved accounts, imported before the emulator says it is ready; written by stop() (exportAccounts).
  const args = [HOST, String(port), projectId, ...(persistDir ? [path.resolve(persistDir)] : [])];
  // process.execPath keeps the emulator on the caller's Node, whatever `node` is on PATH.
  const child = spawn(process.execPath, ['-e', WATCHDOG, LAZY_VALIDATION, EMULATOR_PROCESS, ...args], {
    cwd: workDir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Own process group, so stop() can signal firebase-tools and anything it spawns in one go.
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => output.push(line));
  }
  child.on('error', (error) => output.push(`spawn failed: ${error.message}`));
  const pid = child.pid;
  if (pid !== undefined) {
    const killOnExit = (): void => signalGroup(pid, 'SIGKILL');
    process.on('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
  }
  return child;
}

async function waitUntilReady(
  child: ChildProcess,
  url: string,
  started: () => boolean,
  timeoutMs = READY_TIMEOUT_MS,
): Promise<void> {
  const seen: { exit?: ExitResult } = {};
  void exitPromise(child).then((result) => (seen.exit = result));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // Checked first: a dead emulator plus an answering port means someone else owns the port.
    if (seen.exit) {
      throw new Error(`auth emulator: firebase-tools exited before it was ready (${formatExit(seen.exit)})`);
    }
    if (started() && (await answersAsAuthEmulator(url))) return;
    await sleep(READY_POLL_MS);
  }
  throw new Error(`auth emulator: not ready on ${url} after ${timeoutMs / 1000} s`);
}

async function answersAsAuthEmulator(url: string): Promise<boolean> {
  try {
    // Generous: on a busy shared machine a first answer has been seen to take seconds; the deadline still holds.
    const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return false;
    const body = (await response.json()) as { authEmulator?: { ready?: boolean } };
    return body.authEmulator?.ready === true;
  } catch {
    return false;
  }
}

// The emulator's default gives the old, enumerable codes (EMAIL_NOT_FOUND / INVALID_PASSWORD); production
// projects created since 2023 answer INVALID_LOGIN_CREDENTIALS (auth/invalid-credential) for both.
async function enableImprovedEmailPrivacy(url: string, projectId: string): Promise<void> {
  const response = await fetch(`${url}/emulator/v1/projects/${projectId}/config`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ emailPrivacyConfig: { enableImprovedEmailPrivacy: true } }),
  });
  const body = (await response.json().catch(() => undefined)) as
    { emailPrivacyConfig?: { enableImprovedEmailPrivacy?: boolean } } | undefined;
  if (!response.ok || body?.emailPrivacyConfig?.enableImprovedEmailPrivacy !== true) {
    throw new Error(
      `auth emulator: enabling improved e-mail privacy failed (HTTP ${response.status}): ${JSON.stringify(body)}`,
    );
  }
}

async function stopProcessGroup(child: ChildProcess, graceMs: number): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const exited = exitPromise(child);
  if (!hasExited(child)) {
    signalGroup(pid, 'SIGTERM');
    // Unref'd so a quick shutdown does not keep the caller alive for the rest of the grace period.
    const escalate = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs).unref();
    await exited;
    clearTimeout(escalate);
  }
  // The leader is gone; sweep anything it spawned that ignored SIGTERM (no-op when the group is empty).
  signalGroup(pid, 'SIGKILL');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    // ESRCH: the whole group is already gone, which is what we want.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

interface ExitResult {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function exitPromise(child: ChildProcess): Promise<ExitResult> {
  if (hasExited(child)) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A failed spawn emits 'error' and never 'exit'.
    child.once('error', () => resolve({ code: null, signal: null }));
  });
}

function formatExit({ code, signal }: ExitResult): string {
  if (signal !== null) return `signal ${signal}`;
  return code === null ? 'it did not start' : `exit code ${code}`;
}

/** Keeps the last lines of output for error messages and forwards every line to the caller's log. */
class OutputTail {
  private readonly lines: string[] = [];
  private readonly max: number;
  private readonly log: ((line: string) => void) | undefined;

  constructor(max: number, log: ((line: string) => void) | undefined) {
    this.max = max;
    this.log = log;
  }

  /** Whether firebase-tools has said every emulator started (a line the tail may since have dropped). */
  allStarted = false;

  push(line: string): void {
    if (line.includes(ALL_STARTED_LINE)) this.allStarted = true;
    this.lines.push(line);
    if (this.lines.length > this.max) this.lines.shift();
    this.log?.(line);
  }

  text(): string {
    return this.lines.length > 0 ? this.lines.join('\n') : '(no output)';
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => (result ??= fn());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
