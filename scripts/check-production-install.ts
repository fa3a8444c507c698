/**
 * `npm run test:production`: proves the build runs on its own. Builds, copies only the build output and
 * the package files to a temporary folder, installs there with `npm ci --omit=dev` (no tsx, no Vite, no
 * firebase-tools), starts `npm run serve` and checks that the API and the login page answer. Prints the
 * installed size and the start-up time. The emulator host is a dummy: start-up and these pages never call it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, REPO_ROOT, waitForHttp } from '@portal/dev-stack';

/** What production needs from the repository: the compiled output and what npm reads to install. */
const PRODUCTION_FILES = [
  'package.json',
  'package-lock.json',
  'scripts/install-emulator.mjs',
  'packages/contract/package.json',
  'packages/dev-stack/package.json',
  'apps/api/package.json',
  'apps/api/dist',
  'apps/web/package.json',
  'apps/web/dist',
  'e2e/package.json',
];

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

function check(condition: boolean, message: string) {
  if (!condition) throw new Error(message);
  console.log(`ok  ${message}`);
}

const SHUTDOWN_GRACE_MS = 1000;

/** npm does not pass SIGTERM on to the script it runs: the whole process group gets it, as under a supervisor. */
async function stopGroup(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

if (!process.argv.includes('--no-build')) run('npm', ['run', 'build', '--silent'], REPO_ROOT);

const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-production-'));
try {
  for (const file of PRODUCTION_FILES) {
    if (existsSync(path.join(REPO_ROOT, file))) {
      await cp(path.join(REPO_ROOT, file), path.join(dir, file), { recursive: true });
    }
  }
  const installStarted = performance.now();
  run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  const installSeconds = (performance.now() - installStarted) / 1000;
  const size = spawnSync('du', ['-sm', path.join(dir, 'node_modules')], { encoding: 'utf8' }).stdout.split('\t')[0];
  console.log(`production install: ${size} MB in node_modules, ${installSeconds.toFixed(1)} s`);

  check(!existsSync(path.join(dir, 'node_modules/tsx')), 'no tsx installed');
  check(!existsSync(path.join(dir, 'node_modules/vite')), 'no Vite installed');
  check(!existsSync(path.join(dir, 'tools/firebase-emulator/node_modules')), 'no firebase-tools installed');

  const port = await findFreePort();
  const startedAt = performance.now();
  const server = spawn('npm', ['run', 'serve', '--silent'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, '.data'),
      FIREBASE_PROJECT_ID: 'demo-production-check',
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
      LOG_LEVEL: 'warn',
      // How long the server keeps answering, not ready, after SIGTERM before it drains and exits.
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/api/readyz`, server, 'The production server');
    console.log(`npm run serve answered after ${((performance.now() - startedAt) / 1000).toFixed(2)} s`);
    const health = await fetch(`${url}/api/healthz`);
    check(health.ok && (await health.json()).status === 'ok', '/api/healthz answers ok');
    const login = await fetch(`${url}/login`, { headers: { 'accept-encoding': 'br' } });
    check(login.ok && (await login.text()).includes('<div id="root">'), '/login answers the SPA');
    check(login.headers.get('content-encoding') === 'br', '/login is sent brotli-compressed');
    const map = await fetch(`${url}/assets/index.js.map`);
    check(map.status === 404, 'source maps answer 404');
    await stopGroup(server);
    // Draining: at once not ready (a proxy stops sending), then gone once the grace period is over.
    const readiness = await fetch(`${url}/api/readyz`).then(
      (response) => response.status,
      () => 'gone',
    );
    check(readiness === 503 || readiness === 'gone', 'SIGTERM makes the server not ready at once');
    const deadline = performance.now() + SHUTDOWN_GRACE_MS + 5000;
    let answering = true;
    while (answering && performance.now() < deadline) {
      answering = await fetch(`${url}/api/healthz`).then(
        () => true,
        () => false,
      );
      if (answering) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    check(!answering, 'SIGTERM stops the server after its grace period');
  } finally {
    await stopGroup(server);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
