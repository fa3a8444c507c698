/**
 * The whole portal on this machine: the Auth emulator, then the API serving the built SPA, with demo data.
 * `npm start` runs it on the well-known ports; the e2e suite on free ports with a throwaway data folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAuthEmulator, type AuthEmulator } from './auth-emulator.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
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
  /** Called when the API exits without being asked to (a crash), so the caller can stop the rest. */
  onApiExit?: (code: number | null) => void;
}

export interface Stack {
  url: string;
  emulator: AuthEmulator;
  stop(): Promise<void>;
}

export function buildWeb() {
  const result = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web', '--silent'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('Building the web app failed (see the output above)');
}

export async function startStack(options: StackOptions): Promise<Stack> {
  await mkdir(options.dataDir, { recursive: true });
  const emulator = await startAuthEmulator({
    port: options.emulatorPort,
    projectId: DEMO_PROJECT_ID,
    workDir: path.join(options.dataDir, 'emulator'),
    ...(options.persistAccounts ? { persistDir: path.join(options.dataDir, 'auth-emulator') } : {}),
  });
  let api: ChildProcess | undefined;
  try {
    api = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'apps/api/src/server.ts')], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: String(options.port),
        HOST: '127.0.0.1',
        DATA_DIR: options.dataDir,
        FIREBASE_PROJECT_ID: DEMO_PROJECT_ID,
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        SEED_DEMO_DATA: 'true',
        DATABASE_URL: '',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pipeLines(api, options.log);
    const url = `http://localhost:${options.port}`;
    await waitForReady(`${url}/api/readyz`, api);
    const running = api;
    let stopping = false;
    running.once('exit', (code) => {
      if (!stopping) options.onApiExit?.(code);
    });
    return {
      url,
      emulator,
      stop: async () => {
        stopping = true;
        await stopChild(running);
        await emulator.stop();
      },
    };
  } catch (error) {
    if (api) await stopChild(api);
    await emulator.stop();
    throw error;
  }
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

export async function waitForReady(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`The API exited with code ${exited} before it was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The API did not answer ${url} within ${timeoutMs / 1000} s`);
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
