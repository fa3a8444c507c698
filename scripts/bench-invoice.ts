// `npm run bench:invoice`: the same ~100 KB PDF, from one run, under wrk from six servers — nginx serving it
// as a plain static file (the ceiling), the same nginx configuration in front of two bare responders (what
// any API asked per download can reach), the production topology (nginx in front of the API instances,
// bytes by X-Accel-Redirect) and the embedded server (`npm run serve` alone, sending the bytes itself), each
// of these two again with the invoice in an S3-compatible bucket (a local fauxqs server; behind nginx the
// bytes come from it by a presigned request) — with requests/s, p99 and the ratio to nginx. Needs DATABASE_URL (PostgreSQL), wrk and nginx. A tool for
// people, not a timed test: figures depend on the machine. `--no-build` reuses the last `npm run build`.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash, randomBytes } from 'node:crypto';
import { openSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  buildAll,
  startObjectStore,
  findFreePort,
  freshDatabaseBeside,
  locateProgram,
  REPO_ROOT,
  renderPortalSite,
  requireNginx,
  startNginx,
  startTopology,
  stopChild,
  waitForHttp,
  type Topology,
} from '@portal/dev-stack';
import { makeBenchPdf, seedBenchUser, signUpForToken } from '@portal/dev-stack/bench';
import { coresBetween, processUsage, type ProcessUsage } from './lib/process-usage.ts';
import { runBench, type Cleanups } from './lib/run-bench.ts';

const PARCEL_CODE = 'BENCH000001';
const EMAIL = 'bench@example.com';
const WRK_ARGS = ['-t2', '-c32', '-d10s', '--latency'];
const TARGETS = { topology: { min: 0.6, goal: 0.9 }, embedded: { min: 0.25, goal: 0.4 } };

interface WrkResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  socketErrors: string | undefined;
}

const cleanups: Cleanups = [];
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every API process while it is under load.
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const log = (line: string) => process.stdout.write(`${line}\n`);

function requireTools() {
  const wrk = locateProgram('wrk');
  if (!wrk) {
    process.stderr.write(
      'bench:invoice needs wrk, which is not installed.\nOn Debian/Ubuntu: sudo apt-get install wrk\n',
    );
    process.exit(69);
  }
  try {
    requireNginx();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(69);
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write(
      'bench:invoice needs DATABASE_URL (PostgreSQL; its role must be allowed to create databases).\n',
    );
    process.exit(78);
  }
  return { wrk, databaseUrl };
}

/**
 * wrk as a child process, awaited: this process hosts the local bucket (fauxqs), which must go on answering
 * nginx's requests while wrk runs (spawnSync would hold its event loop, and every bucket download would hang).
 */
async function runWrk(wrk: string, url: string, headers: string[], args = WRK_ARGS): Promise<WrkResult> {
  const child = spawn(wrk, [...args, ...headers.flatMap((header) => ['-H', header]), url]);
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const [status] = (await once(child, 'close')) as [number | null];
  if (status !== 0) throw new Error(`wrk failed (${status}): ${errors || output}`);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output)?.[1];
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s)\b/m.exec(output);
  if (!rps || !p99 || Number(rps) === 0)
    throw new Error(`could not read wrk's output, or nothing was answered:\n${output}`);
  const unit = { us: 0.001, ms: 1, s: 1000 }[p99[2] as 'us' | 'ms' | 's'];
  return {
    requestsPerSecond: Number(rps),
    p99Ms: Number(p99[1]) * unit,
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: /Socket errors:.*$/m.exec(output)?.[0],
  };
}

/** nginx serving the PDF as a plain file: what a web server does without asking anyone. */
async function startStaticNginx(workDir: string, pdf: Uint8Array) {
  const root = path.join(workDir, 'www');
  await mkdir(root, { recursive: true });
  await chmod(workDir, 0o755);
  await chmod(root, 0o755);
  await writeFile(path.join(root, `${PARCEL_CODE}.pdf`), pdf);
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}/${PARCEL_CODE}.pdf`;
  const nginx = await startNginx({
    workDir: path.join(workDir, 'nginx'),
    httpConfig: `  sendfile on;
  tcp_nopush on;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { add_header Cache-Control no-store; }
  }`,
    readyUrl: url,
  });
  cleanups.push(() => nginx.stop());
  return url;
}

/**
 * What any API behind this nginx could reach on this machine: the portal's nginx configuration in front of
 * two Node processes that do nothing but compare the Authorization header with one string and answer the
 * X-Accel-Redirect. The topology's distance to this row is the portal's own cost; this row's distance to
 * static nginx is the cost of asking a Node process at all (nginx proxying, loopback TCP, Node's HTTP).
 */
const BARE_RESPONDER = `
const http = require('node:http');
const [port, authorization, accelPath] = process.argv.slice(1);
http.createServer((request, response) => {
  if (request.url === '/ready') return response.end();
  if (request.headers.authorization !== authorization) return response.writeHead(401).end();
  response.writeHead(200, { 'content-type': 'application/pdf', 'cache-control': 'no-store', 'content-length': '0', 'x-accel-redirect': accelPath });
  response.end();
}).listen(Number(port), '127.0.0.1');`;

async function startCeiling(topology: Topology, workDir: string, authorization: string, pdf: Uint8Array) {
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const servers: string[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await findFreePort();
    const child = spawn(
      process.execPath,
      ['-e', BARE_RESPONDER, String(port), authorization, `/_invoice-blobs/${sha256.slice(0, 2)}/${sha256}`],
      {
        stdio: 'ignore',
      },
    );
    cleanups.push(() => stopChild(child, 'SIGTERM', 2000));
    await waitForHttp(`http://127.0.0.1:${port}/ready`, child, 'a bare responder');
    servers.push(`server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`);
  }
  const port = await findFreePort();
  const nginx = await startNginx({
    workDir: path.join(workDir, 'ceiling-nginx'),
    httpConfig: await renderPortalSite({
      listen: `listen 127.0.0.1:${port};`,
      upstreamServers: servers,
      webRoot: path.join(REPO_ROOT, 'apps/web/dist'),
      invoiceDir: topology.invoiceDir,
      maxBody: '10m',
      accessLog: path.join(workDir, 'ceiling-access.log'),
    }),
    readyUrl: `http://127.0.0.1:${port}/favicon.svg`,
  });
  cleanups.push(() => nginx.stop());
  return `http://127.0.0.1:${port}/api/invoice?parcelCode=${PARCEL_CODE}`;
}

/** The compiled server, as `npm run serve` runs it, on the topology's database (and invoice store, unless `env` says otherwise). */
async function startInstance(topology: Topology, workDir: string, name: string, env: Record<string, string>) {
  const port = await findFreePort();
  const logFile = path.join(workDir, `${name}.log`);
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', 'apps/api/dist/server.js'], {
    cwd: REPO_ROOT,
    env: { ...topology.env, PORT: String(port), ...env },
    stdio: ['ignore', out, out],
  });
  cleanups.push(() => stopChild(child, 'SIGTERM', 5000));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/api/readyz`, child, `${name} (see ${logFile})`);
  return baseUrl;
}

const startEmbedded = (topology: Topology, workDir: string, env: Record<string, string> = {}) =>
  startInstance(topology, workDir, env.INVOICE_STORE ? 'embedded-object-store' : 'embedded', {
    INSTANCES: '1',
    INVOICE_DELIVERY: 'direct',
    ...env,
  });

/**
 * The topology again with the invoices in a local S3-compatible bucket: two more instances on the same
 * database (the row names the same SHA-256, stored in the bucket as well) and nginx sending the bytes it
 * fetches from the bucket with their presigned requests.
 */
async function startObjectStoreTopology(topology: Topology, workDir: string, ingestToken: string, pdf: Uint8Array) {
  const objectStore = await startObjectStore({ dataDir: path.join(workDir, 'object-store') });
  cleanups.push(() => objectStore.stop());
  const env = { ...objectStore.env, INVOICE_DELIVERY: 'x-accel-redirect' };
  const instances = [];
  for (let i = 0; i < 2; i++) instances.push(await startInstance(topology, workDir, `object-store-api-${i + 1}`, env));
  // Through an instance of the bucket, as the ingestion would: the row is unchanged, the bytes land in the bucket.
  const stored = await fetch(`${instances[0]}/api/invoices/${PARCEL_CODE}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ingestToken}`, 'content-type': 'application/pdf' },
    body: new Uint8Array(pdf),
  });
  if (!stored.ok) throw new Error(`storing the PDF in the bucket failed: ${stored.status} ${await stored.text()}`);
  const port = await findFreePort();
  const nginx = await startNginx({
    workDir: path.join(workDir, 'object-store-nginx'),
    httpConfig: await renderPortalSite({
      listen: `listen 127.0.0.1:${port};`,
      upstreamServers: instances.map((url) => `server ${new URL(url).host} max_fails=1 fail_timeout=5s;`),
      webRoot: path.join(REPO_ROOT, 'apps/web/dist'),
      invoiceDir: topology.invoiceDir,
      invoiceStoreOrigin: objectStore.endpoint,
      maxBody: '10m',
      accessLog: path.join(workDir, 'object-store-access.log'),
    }),
    readyUrl: `http://127.0.0.1:${port}/favicon.svg`,
  });
  cleanups.push(() => nginx.stop());
  return { topologyUrl: `http://127.0.0.1:${port}`, objectStore };
}

function formatRow(label: string, result: WrkResult) {
  return `${label.padEnd(28)} ${result.requestsPerSecond.toFixed(0).padStart(9)} req/s   p99 ${result.p99Ms.toFixed(2).padStart(8)} ms`;
}

async function main() {
  const tools = requireTools();
  if (!process.argv.includes('--no-build')) buildAll();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-'));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  // nginx's workers read the files below it as an unprivileged user.
  await chmod(workDir, 0o755);
  const databaseUrl = await freshDatabaseBeside(tools.databaseUrl, 'bench');
  const ingestToken = randomBytes(32).toString('base64url');

  log('starting the topology (auth emulator, 2 API instances, nginx)...');
  const topology = await startTopology({
    nodeArgs,
    port: await findFreePort(),
    instances: 2,
    databaseUrl,
    workDir: path.join(workDir, 'topology'),
    env: {
      INGEST_TOKEN: ingestToken,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      // Stopped at the end without a drain: a profiled process writes its profile as it exits.
      SHUTDOWN_GRACE_MS: '0',
      // One account downloads as fast as it can here: the per-user allowance would end the run.
      RATE_LIMIT_DOWNLOADS_PER_HOUR: '1000000000',
    },
  });
  cleanups.push(() => topology.stop());

  const pdf = await makeBenchPdf(PARCEL_CODE, 100 * 1024);
  const { idToken, uid } = await signUpForToken(topology.emulator, EMAIL);
  await seedBenchUser(topology.env, { email: EMAIL, uid });
  const stored = await fetch(`${topology.url}/api/invoices/${PARCEL_CODE}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ingestToken}`, 'content-type': 'application/pdf' },
    body: new Uint8Array(pdf),
  });
  if (!stored.ok) throw new Error(`storing the PDF failed: ${stored.status} ${await stored.text()}`);

  log('starting the embedded server and nginx for the static file...');
  const embeddedBase = await startEmbedded(topology, workDir);
  const nginxUrl = await startStaticNginx(path.join(workDir, 'static'), pdf);
  const ceilingUrl = await startCeiling(topology, workDir, `Bearer ${idToken}`, pdf);
  log('starting two instances and nginx on a local S3-compatible bucket, and an embedded server on it...');
  const bucket = await startObjectStoreTopology(topology, workDir, ingestToken, pdf);
  const embeddedBucketBase = await startEmbedded(topology, workDir, bucket.objectStore.env);
  const targets = {
    nginx: { label: 'nginx (static file)', url: nginxUrl, headers: [] as string[] },
    ceiling: {
      label: 'nginx + 2 bare responders',
      url: ceilingUrl,
      headers: [`Authorization: Bearer ${idToken}`],
    },
    topology: {
      label: 'topology (nginx + 2 APIs)',
      url: `${topology.url}/api/invoice?parcelCode=${PARCEL_CODE}`,
      headers: [`Authorization: Bearer ${idToken}`],
    },
    embedded: {
      label: 'embedded (npm run serve)',
      url: `${embeddedBase}/api/invoice?parcelCode=${PARCEL_CODE}`,
      headers: [`Authorization: Bearer ${idToken}`],
    },
    bucketTopology: {
      label: 'topology, S3 bucket',
      url: `${bucket.topologyUrl}/api/invoice?parcelCode=${PARCEL_CODE}`,
      headers: [`Authorization: Bearer ${idToken}`],
    },
    bucketEmbedded: {
      label: 'embedded, S3 bucket (direct)',
      url: `${embeddedBucketBase}/api/invoice?parcelCode=${PARCEL_CODE}`,
      headers: [`Authorization: Bearer ${idToken}`],
    },
  };

  // Same bytes from every server, or the comparison means nothing; and the API really checks.
  for (const target of Object.values(targets)) {
    const headers = Object.fromEntries(target.headers.map((header) => header.split(': ') as [string, string]));
    const bytes = new Uint8Array(await (await fetch(target.url, { headers })).arrayBuffer());
    if (Buffer.compare(bytes, pdf) !== 0) throw new Error(`${target.label} does not serve the same bytes`);
    if (target.headers.length && (await fetch(target.url)).status !== 401)
      throw new Error(`${target.label} answered without a token`);
  }

  log(`PDF: ${pdf.length} bytes; database: PostgreSQL; wrk ${WRK_ARGS.join(' ')}`);
  // wrk, nginx and the API share these CPUs: other load on the machine skews every figure.
  const load = os.loadavg().map((value) => value.toFixed(1));
  log(`${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}); load average ${load.join(' ')}`);
  // Each instance at rest (started, data seeded, nothing asked yet): the floor of its memory request.
  const instancePids = topology.instances.map((instance) => instance.process.pid ?? 0);
  const idle = instancePids.map(processUsage);
  log('warming up...');
  for (const target of Object.values(targets))
    await runWrk(tools.wrk, target.url, target.headers, ['-t2', '-c32', '-d3s', '--latency']);

  const results = {} as Record<keyof typeof targets, WrkResult>;
  let underLoad: { before: ProcessUsage[]; after: ProcessUsage[]; seconds: number } | undefined;
  for (const [name, target] of Object.entries(targets) as [keyof typeof targets, (typeof targets)['nginx']][]) {
    log(`measuring ${target.label}...`);
    const before = instancePids.map(processUsage);
    const startedAt = performance.now();
    results[name] = await runWrk(tools.wrk, target.url, target.headers);
    if (name === 'topology') {
      const seconds = (performance.now() - startedAt) / 1000;
      underLoad = { before, after: instancePids.map(processUsage), seconds };
    }
  }

  log('');
  for (const [name, target] of Object.entries(targets) as [keyof typeof targets, (typeof targets)['nginx']][]) {
    const ratio = results[name].requestsPerSecond / results.nginx.requestsPerSecond;
    const goal =
      name === 'topology'
        ? `${targetNote(ratio, TARGETS.topology)}; ${(results.topology.requestsPerSecond / results.ceiling.requestsPerSecond).toFixed(2)} of the bare responders`
        : name === 'embedded'
          ? targetNote(ratio, TARGETS.embedded)
          : name === 'ceiling'
            ? '(the most any API answering through this nginx reaches here)'
            : name === 'bucketTopology'
              ? `(${(results.bucketTopology.requestsPerSecond / results.topology.requestsPerSecond).toFixed(2)} of the folder topology; the local bucket is a Node process too)`
              : name === 'bucketEmbedded'
                ? `(${(results.bucketEmbedded.requestsPerSecond / results.embedded.requestsPerSecond).toFixed(2)} of the folder; hot invoices come from memory)`
                : '';
    log(`${formatRow(target.label, results[name])}   ${ratio.toFixed(2)} of nginx ${goal}`);
  }
  // What an instance uses, for its Kubernetes requests and limits (docs/decisions/0031).
  log('');
  if (underLoad) {
    const cpuSeconds = underLoad.after.reduce(
      (sum, after, index) => sum + after.cpuSeconds - (underLoad?.before[index]?.cpuSeconds ?? 0),
      0,
    );
    const downloads = results.topology.requestsPerSecond * underLoad.seconds;
    log(`API instances: ${((cpuSeconds / downloads) * 1000).toFixed(2)} ms of CPU per download through nginx`);
  }
  instancePids.forEach((_pid, index) => {
    const at = (usage: ProcessUsage | undefined) => `${usage?.rssMiB.toFixed(0)} MiB`;
    const cores = underLoad ? coresBetween(underLoad.before[index]!, underLoad.after[index]!, underLoad.seconds) : 0;
    log(
      `API instance ${index + 1}: at rest ${at(idle[index])} resident; under the topology's load ${cores.toFixed(2)} cores, ` +
        `${at(underLoad?.after[index])} resident, peak ${underLoad?.after[index]?.peakRssMiB.toFixed(0)} MiB`,
    );
  });
  let failed = false;
  for (const [name, result] of Object.entries(results)) {
    if (result.non2xx) log(`WARNING: ${name} answered ${result.non2xx} requests with a non-2xx status`);
    if (result.socketErrors) log(`WARNING: ${name}: ${result.socketErrors}`);
    failed ||= result.non2xx > 0;
  }
  return failed ? 1 : 0;
}

function targetNote(ratio: number, target: { min: number; goal: number }) {
  const verdict = ratio >= target.goal ? 'goal met' : ratio >= target.min ? 'target met' : 'target NOT met';
  return `(target >= ${target.min}, goal ${target.goal}: ${verdict})`;
}

await runBench('bench:invoice', cleanups, main);
