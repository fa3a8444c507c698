/**
 * The whole portal on this machine: the Auth emulator, the demo data, then the API serving the built SPA.
 * `npm start` runs it on the well-known ports; the e2e suite on free ports with a throwaway data folder;
 * `npm run dev` with the API in watch mode behind Vite's dev server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAuthEmulator, type AuthEmulator } from './auth-emulator.ts';
import { stopChild, waitForHttp } from './child-process.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
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
  /** Run the API with `tsx watch`: it restarts whenever one of its source files changes (npm run dev). */
  watchApi?: boolean;
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
    const env = {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      FIREBASE_PROJECT_ID: DEMO_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      DATABASE_URL: '',
      ...options.env,
    };
    // Loaded only here: the seed brings the API's database and identity code with it.
    const { seedDemoDataFromEnv } = await import('./demo/seed.ts');
    await seedDemoDataFromEnv(env);
    options.log?.('demo data seeded');
    const server = path.join(REPO_ROOT, 'apps/api/src/server.ts');
    const args = options.watchApi
      ? [createRequire(import.meta.url).resolve('tsx/cli'), 'watch', '--clear-screen=false', server]
      : ['--import', 'tsx', server];
    api = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pipeLines(api, options.log);
    const url = `http://localhost:${options.port}`;
    await waitForHttp(`${url}/api/readyz`, api, 'The API');
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
