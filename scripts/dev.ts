/**
 * `npm run dev`: the Auth emulator with the demo data, the API in watch mode (restarts on every change of
 * its sources) and Vite's dev server with hot reload in front of it, proxying /api and /config.json.
 * Open http://localhost:5173. Ctrl-C stops everything. `npm start` remains the built, production-like run.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEMO_ACCOUNTS, REPO_ROOT, startStack, stopChild, waitForHttp } from '@portal/dev-stack';

const webPort = Number(process.env.PORT ?? 5173);
const apiPort = Number(process.env.API_PORT ?? 8080);
const emulatorPort = Number(process.env.AUTH_EMULATOR_PORT ?? 9099);
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(REPO_ROOT, '.data'));

const stack = await startStack({
  port: apiPort,
  emulatorPort,
  dataDir,
  persistAccounts: true,
  api: 'watch',
  log: (line) => process.stdout.write(`[api] ${line}\n`),
  env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
});

const vite = spawn('npm', ['run', 'dev', '--workspace', 'apps/web', '--', '--port', String(webPort), '--strictPort'], {
  cwd: REPO_ROOT,
  env: { ...process.env, PORTAL_API_URL: stack.url },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const webUrl = `http://localhost:${webPort}`;
await waitForHttp(webUrl, vite, 'Vite');

process.stdout.write(`
  Developing at ${webUrl}  (hot reload; the API at ${stack.url} restarts when its sources change)
  Demo accounts: ${DEMO_ACCOUNTS.filter((account) => account.password)
    .map((account) => `${account.email} / ${account.password}`)
    .join(', ')}
  API docs: ${webUrl}/api/docs   Press Ctrl-C to stop.
`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await stopChild(vite);
  await stack.stop();
  process.exit(0);
}
vite.once('exit', () => void stop());
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
