// `npm run bench:invoice`: authenticated GET /api/invoice for a ~100 KB PDF under wrk, against the same
// file served as a plain static file by nginx, in the same run. Prints requests/s and p99 for both and
// the ratio. A tool for people, not a timed test: figures depend on the machine.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, openSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort, startAuthEmulator, stopChild, waitForHttp, type AuthEmulator } from '@portal/dev-stack';
import { makeBenchPdf, seedBenchUser, signUpForToken } from '@portal/dev-stack/bench';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROJECT_ID = 'demo-portal-bench';
const PARCEL_CODE = 'BENCH000001';
const EMAIL = 'bench@example.com';
const WRK_ARGS = ['-t2', '-c32', '-d10s', '--latency'];
const TARGET_RATIO = 0.5;

interface WrkResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  socketErrors: string | undefined;
}

const cleanups: (() => Promise<void> | void)[] = [];
const log = (line: string) => process.stdout.write(`${line}\n`);

/** Finds a program on PATH or in the sbin folders, where Debian puts nginx. */
function locate(program: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function requireTools() {
  const wrk = locate('wrk');
  const nginx = locate('nginx');
  const missing = [!wrk && 'wrk', !nginx && 'nginx'].filter(Boolean);
  if (missing.length) {
    process.stderr.write(
      `bench:invoice needs ${missing.join(' and ')}, which ${missing.length > 1 ? 'are' : 'is'} not installed.\n` +
        `On Debian/Ubuntu: sudo apt-get install ${missing.join(' ')}\n`,
    );
    process.exit(69);
  }
  return { wrk: wrk as string, nginx: nginx as string };
}

function runWrk(wrk: string, url: string, headers: string[], args = WRK_ARGS): WrkResult {
  const result = spawnSync(wrk, [...args, ...headers.flatMap((header) => ['-H', header]), url], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`wrk failed (${result.status}): ${result.stderr || result.stdout}`);
  const output = result.stdout;
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output)?.[1];
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s)\b/m.exec(output);
  if (!rps || !p99) throw new Error(`could not read wrk's output:\n${output}`);
  const unit = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
  return {
    requestsPerSecond: Number(rps),
    p99Ms: Number(p99[1]) * unit,
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: /Socket errors:.*$/m.exec(output)?.[0],
  };
}

async function startNginx(nginx: string, workDir: string, pdf: Uint8Array) {
  const root = path.join(workDir, 'www');
  await mkdir(root, { recursive: true });
  await writeFile(path.join(root, `${PARCEL_CODE}.pdf`), pdf);
  // nginx workers drop to an unprivileged user when started as root: they must be able to read the file.
  for (const dir of [workDir, root]) await chmod(dir, 0o755);
  const port = await findFreePort();
  const conf = path.join(workDir, 'nginx.conf');
  await writeFile(
    conf,
    `daemon off;
worker_processes auto;
pid ${workDir}/nginx.pid;
error_log ${workDir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${workDir}/access.log;
  client_body_temp_path ${workDir}/client_body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;
  types { application/pdf pdf; }
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { add_header Cache-Control no-store; }
  }
}
`,
  );
  const child = spawn(nginx, ['-p', workDir, '-c', conf, '-e', `${workDir}/error.log`], { stdio: 'inherit' });
  cleanups.push(() => stopChild(child, 'SIGQUIT', 5000));
  const url = `http://127.0.0.1:${port}/${PARCEL_CODE}.pdf`;
  await waitForHttp(url, child, 'nginx');
  return url;
}

async function startApi(emulator: AuthEmulator, dataDir: string, ingestToken: string) {
  const port = await findFreePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    FIREBASE_PROJECT_ID: PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    INGEST_TOKEN: ingestToken,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // One account downloads as fast as it can here: the per-user allowance would end the run.
    RATE_LIMIT_DOWNLOADS_PER_HOUR: '1000000000',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    NODE_ENV: 'production',
  };
  // Logs go to a file as they would in production (to a collector), not to this terminal.
  const logFile = path.join(dataDir, 'api.log');
  const out = openSync(logFile, 'a');
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the API while it is under load.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', out, out],
  });
  cleanups.push(() => stopChild(child, 'SIGTERM', 5000));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/api/healthz`, child, `the API (see ${logFile})`);
  return baseUrl;
}

function formatRow(label: string, result: WrkResult) {
  return `${label.padEnd(28)} ${result.requestsPerSecond.toFixed(0).padStart(9)} req/s   p99 ${result.p99Ms.toFixed(2).padStart(8)} ms`;
}

async function main() {
  const tools = requireTools();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-'));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const dataDir = path.join(workDir, 'data');
  await mkdir(dataDir);

  log('starting the auth emulator...');
  const emulator = await startAuthEmulator({
    port: await findFreePort(),
    projectId: PROJECT_ID,
    workDir: path.join(workDir, 'emulator'),
  });
  cleanups.push(() => emulator.stop());
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;

  const pdf = await makeBenchPdf(PARCEL_CODE, 100 * 1024);
  const { idToken, uid } = await signUpForToken(emulator, EMAIL);
  await seedBenchUser(
    { ...process.env, DATA_DIR: dataDir, FIREBASE_PROJECT_ID: PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: emulator.host },
    { email: EMAIL, uid },
  );

  log('starting the API and nginx...');
  const ingestToken = randomBytes(32).toString('base64url');
  const apiBase = await startApi(emulator, dataDir, ingestToken);
  const stored = await fetch(`${apiBase}/api/invoices/${PARCEL_CODE}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ingestToken}`, 'content-type': 'application/pdf' },
    body: new Uint8Array(pdf),
  });
  // 200 when a PostgreSQL database already holds it from an earlier run.
  if (!stored.ok) throw new Error(`storing the PDF failed: ${stored.status} ${await stored.text()}`);
  const nginxDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-nginx-'));
  cleanups.push(() => rm(nginxDir, { recursive: true, force: true }));
  const nginxUrl = await startNginx(tools.nginx, nginxDir, pdf);
  const apiUrl = `${apiBase}/api/invoice?parcelCode=${PARCEL_CODE}`;
  const auth = [`Authorization: Bearer ${idToken}`];

  // Same bytes from both, or the comparison means nothing.
  const viaApi = new Uint8Array(
    await (await fetch(apiUrl, { headers: { authorization: `Bearer ${idToken}` } })).arrayBuffer(),
  );
  const viaNginx = new Uint8Array(await (await fetch(nginxUrl)).arrayBuffer());
  if (Buffer.compare(viaApi, pdf) !== 0 || Buffer.compare(viaNginx, pdf) !== 0)
    throw new Error('the two servers do not serve the same bytes');
  // And the API really checks: without the token there is nothing to serve.
  const anonymous = await fetch(apiUrl);
  if (anonymous.status !== 401) throw new Error(`the API answered ${anonymous.status} without a token`);

  const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite';
  log(`PDF: ${pdf.length} bytes; API database: ${database}; wrk ${WRK_ARGS.join(' ')}`);
  // wrk, nginx and the API share these CPUs: other load on the machine skews every figure.
  const load = os.loadavg().map((value) => value.toFixed(1));
  log(`${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); load average ${load.join(' ')}`);
  log('warming up...');
  runWrk(tools.wrk, nginxUrl, [], ['-t2', '-c32', '-d3s', '--latency']);
  runWrk(tools.wrk, apiUrl, auth, ['-t2', '-c32', '-d3s', '--latency']);

  log('measuring nginx...');
  const nginxResult = runWrk(tools.wrk, nginxUrl, []);
  log('measuring the API...');
  const apiResult = runWrk(tools.wrk, apiUrl, auth);

  const ratio = apiResult.requestsPerSecond / nginxResult.requestsPerSecond;
  log('');
  log(formatRow('nginx (static file)', nginxResult));
  log(formatRow('API (auth + authorization)', apiResult));
  log(`ratio API/nginx: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`);
  for (const [label, result] of [
    ['nginx', nginxResult],
    ['API', apiResult],
  ] as const) {
    if (result.non2xx) log(`WARNING: ${label} answered ${result.non2xx} requests with a non-2xx status`);
    if (result.socketErrors) log(`WARNING: ${label}: ${result.socketErrors}`);
  }
  return apiResult.non2xx || nginxResult.non2xx ? 1 : 0;
}

async function cleanup() {
  for (const step of cleanups.reverse()) {
    try {
      await step();
    } catch (error) {
      process.stderr.write(`cleanup: ${(error as Error).message}\n`);
    }
  }
  cleanups.length = 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanup().then(() => process.exit(130)));
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  process.stderr.write(`bench:invoice failed: ${(error as Error).stack ?? String(error)}\n`);
} finally {
  await cleanup();
}
process.exit(exitCode);
