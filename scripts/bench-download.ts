// `npm run bench:download`: what one invoice download costs the embedded server (`npm run serve` alone,
// sending the bytes itself) against the least any Node server can do for it: a bare `node:http` server that
// compares the Authorization header with one string and answers the same ~100 KB from memory. Both are
// loaded by autocannon in one run, alternating, `BENCH_ROUNDS` rounds (default 3) of `BENCH_SECONDS` (10)
// each, the order swapped every round, so a neighbour's load falls on both alike; the ratio of their
// requests/s is the figure (goal >= 0.6), with each side's CPU per download.
//
// The portal keeps every check: the ID token verified (cached by its hash), the session lifetime, the
// allowlist row (fail-closed cache), both allowances, the audit entry and "Recently opened". PostgreSQL when
// DATABASE_URL is set (scratch databases beside it, made afresh each run), else the embedded PGlite.
// `--built` runs apps/api/dist (after `npm run build`) instead of the sources through tsx.
// BENCH_COMPARE_WITH=<another checkout> (with its packages installed: a clone of an earlier revision) adds
// that checkout's server as a third side, on a database of its own, in the same alternation: before and
// after in one run.
// BENCH_RATE=<requests/s> holds every side to the same rate (then only the CPU per download compares);
// BENCH_TOGETHER=1 loads every side at once instead of in turn. Before the rounds, each side's CPU while idle
// for 10 s is printed: the part of a download's CPU that is a cost per second, not per download.
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>" profiles the portal; BENCH_PORT (default 7610) is the
// first of the three ports it uses. A tool for people, not a timed test.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { freshDatabaseBeside, REPO_ROOT, startAuthEmulator, stopChild, waitForHttp } from '@portal/dev-stack';
import { makeBenchPdf, seedBenchUser, signUpForToken } from '@portal/dev-stack/bench';
import { processUsage } from './lib/process-usage.ts';
import { runBench, type Cleanups } from './lib/run-bench.ts';

const PARCEL_CODE = 'BENCH000001';
const EMAIL = 'bench@example.com';
const CONNECTIONS = 32;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
// A fixed rate for every side (requests/s in all): each server's CPU per download is then compared at the
// same load, where without it a busier side batches more requests into each wake-up of its event loop.
const RATE = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;
// Every side loaded at the same time, each by its own autocannon: on a machine whose load swings from one
// second to the next, each round's sides then share the same moment (and compete for the same cores).
const TOGETHER = process.env.BENCH_TOGETHER === '1';
const GOAL = 0.6;
const IDLE_SECONDS = 10;
const basePort = Number(process.env.BENCH_PORT ?? 7610);
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const built = process.argv.includes('--built');
const cleanups: Cleanups = [];
const log = (line: string) => process.stdout.write(`${line}\n`);

/** The floor: no framework, no database, no identity provider; one string compared, bytes from memory. */
const BARE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const [port, authorization, pdfPath, parcelCode] = process.argv.slice(1);
const pdf = fs.readFileSync(pdfPath);
http.createServer((request, response) => {
  if (request.url === '/ready') return response.end();
  if (request.headers.authorization !== authorization) return response.writeHead(401).end();
  response.writeHead(200, {
    'content-type': 'application/pdf',
    'cache-control': 'no-store',
    'content-disposition': 'inline; filename="' + parcelCode + '.pdf"',
    'content-length': pdf.length,
  });
  response.end(pdf);
}).listen(Number(port), '127.0.0.1');`;

interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  cpuMsPerDownload: number;
}

/** autocannon in a process of its own, so its work is not counted to either server. */
async function load(url: string, authorization: string, seconds: number, pid: number): Promise<LoadResult> {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const args = [
    cli,
    '--json',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(seconds),
    '-H',
    `authorization=${authorization}`,
    ...(RATE ? ['--overallRate', String(RATE)] : []),
  ];
  const before = processUsage(pid);
  const child = spawn(process.execPath, [...args, url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const [status] = (await once(child, 'close')) as [number | null];
  const after = processUsage(pid);
  if (status !== 0) throw new Error(`autocannon failed (${status}): ${errors}`);
  const result = JSON.parse(output) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    non2xx: number;
    errors: number;
    '2xx': number;
  };
  if (!result['2xx']) throw new Error(`nothing was answered with 2xx by ${url}: ${output}`);
  return {
    requestsPerSecond: result['2xx'] / seconds,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMsPerDownload: ((after.cpuSeconds - before.cpuSeconds) * 1000) / result['2xx'],
  };
}

function startLogged(args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', out, out] });
  cleanups.push(() => stopChild(child, 'SIGTERM', 10_000));
  return child;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type SideName = 'bare' | 'portal' | 'compared';
interface Side {
  label: string;
  url: string;
  pid: number;
}

/** One portal server from `checkout`'s sources (or build), on a database and data folder of its own, the PDF stored. */
async function startPortal(options: {
  checkout: string;
  name: string;
  port: number;
  env: NodeJS.ProcessEnv;
  uid: string;
  ingestToken: string;
  pdf: Buffer;
  workDir: string;
}): Promise<{ base: string; pid: number }> {
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    PORT: String(options.port),
    DATA_DIR: path.join(options.workDir, `${options.name}-data`),
    DATABASE_URL: process.env.DATABASE_URL
      ? await freshDatabaseBeside(process.env.DATABASE_URL, `download_${options.name}`)
      : '',
  };
  await seedBenchUser(env, { email: EMAIL, uid: options.uid });
  const entry = built ? ['apps/api/dist/server.js'] : ['--import', 'tsx', 'apps/api/src/server.ts'];
  const out = openSync(path.join(options.workDir, `${options.name}.log`), 'a');
  const child = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', ...entry], {
    cwd: options.checkout,
    env,
    stdio: ['ignore', out, out],
  });
  cleanups.push(() => stopChild(child, 'SIGTERM', 10_000));
  const base = `http://127.0.0.1:${options.port}`;
  await waitForHttp(`${base}/api/readyz`, child, `${options.name} (see ${options.workDir}/${options.name}.log)`);
  const stored = await fetch(`${base}/api/invoices/${PARCEL_CODE}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${options.ingestToken}`, 'content-type': 'application/pdf' },
    body: new Uint8Array(options.pdf),
  });
  if (!stored.ok) throw new Error(`storing the PDF failed: ${stored.status} ${await stored.text()}`);
  return { base, pid: child.pid! };
}

async function main() {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-download-'));
  cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const [emulatorPort, portalPort, barePort, comparedPort] = [basePort, basePort + 1, basePort + 2, basePort + 3];
  const comparedCheckout = process.env.BENCH_COMPARE_WITH;
  const emulator = await startAuthEmulator({
    port: emulatorPort,
    projectId: 'demo-parcel-portal',
    workDir: path.join(workDir, 'emulator'),
  });
  cleanups.push(() => emulator.stop());
  const ingestToken = randomBytes(32).toString('base64url');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    INSTANCES: '1',
    INVOICE_DELIVERY: 'direct',
    FIREBASE_PROJECT_ID: 'demo-parcel-portal',
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    INGEST_TOKEN: ingestToken,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    // Stopped without a drain: a profiled process writes its profile as it exits.
    SHUTDOWN_GRACE_MS: '0',
    // One account downloads as fast as it can here: the per-user allowance would end the run.
    RATE_LIMIT_DOWNLOADS_PER_HOUR: '1000000000',
  };
  const { idToken, uid } = await signUpForToken(emulator, EMAIL);
  const authorization = `Bearer ${idToken}`;
  const pdf = await makeBenchPdf(PARCEL_CODE, 100 * 1024);
  const portalOptions = { env, uid, ingestToken, pdf, workDir };
  const portal = await startPortal({ ...portalOptions, checkout: REPO_ROOT, name: 'portal', port: portalPort });
  const compared = comparedCheckout
    ? await startPortal({ ...portalOptions, checkout: comparedCheckout, name: 'compared', port: comparedPort })
    : undefined;

  const pdfPath = path.join(workDir, `${PARCEL_CODE}.pdf`);
  await writeFile(pdfPath, pdf);
  const bare = startLogged(
    ['-e', BARE_SERVER, String(barePort), authorization, pdfPath, PARCEL_CODE],
    process.env,
    path.join(workDir, 'bare.log'),
  );
  await waitForHttp(`http://127.0.0.1:${barePort}/ready`, bare, 'the bare server');

  const invoicePath = `/api/invoice?parcelCode=${PARCEL_CODE}`;
  const sides: Partial<Record<SideName, Side>> = {
    bare: { label: 'bare node:http (memory)', url: `http://127.0.0.1:${barePort}${invoicePath}`, pid: bare.pid! },
    portal: { label: 'portal (embedded, this checkout)', url: `${portal.base}${invoicePath}`, pid: portal.pid },
    ...(compared
      ? {
          compared: {
            label: `portal (embedded, ${path.basename(comparedCheckout!)})`,
            url: `${compared.base}${invoicePath}`,
            pid: compared.pid,
          },
        }
      : {}),
  };
  const names = Object.keys(sides) as SideName[];
  // The same bytes from both, or the comparison means nothing; and both really check the token.
  for (const side of Object.values(sides) as Side[]) {
    const bytes = Buffer.from(await (await fetch(side.url, { headers: { authorization } })).arrayBuffer());
    if (Buffer.compare(bytes, pdf) !== 0) throw new Error(`${side.label} does not serve the same bytes`);
    if ((await fetch(side.url)).status !== 401) throw new Error(`${side.label} answered without a token`);
  }

  log(
    `PDF: ${pdf.length} bytes; database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; API from ${built ? 'apps/api/dist' : 'source (tsx)'}`,
  );
  log(
    `autocannon -c ${CONNECTIONS} -d ${SECONDS}${RATE ? ` --overallRate ${RATE}` : ''}, ${ROUNDS} rounds, ${TOGETHER ? 'every side at once' : 'alternating'}`,
  );
  log(
    `${os.cpus().length} CPUs; load average ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  log('warming up...');
  for (const name of names) await load(sides[name]!.url, authorization, 3, sides[name]!.pid);

  // What each side spends with nothing to answer (the portal's flush loops, heartbeats and sweeps): a cost
  // per second, which the CPU per download carries the more of, the fewer downloads a second there are.
  const idleBefore = names.map((name) => processUsage(sides[name]!.pid).cpuSeconds);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idleMsPerSecond = names.map(
    (name, index) => ((processUsage(sides[name]!.pid).cpuSeconds - idleBefore[index]!) * 1000) / IDLE_SECONDS,
  );
  log(
    `idle for ${IDLE_SECONDS} s: ${names.map((name, index) => `${name} ${idleMsPerSecond[index]!.toFixed(1)} ms CPU/s`).join(', ')}`,
  );

  const rounds: Partial<Record<SideName, LoadResult>>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Rotated every round: no side always runs first, or always right after the same neighbour.
    const order = names.map((_name, index) => names[(index + round) % names.length]!);
    const results: Partial<Record<SideName, LoadResult>> = {};
    if (TOGETHER) {
      await Promise.all(
        order.map(
          async (name) => (results[name] = await load(sides[name]!.url, authorization, SECONDS, sides[name]!.pid)),
        ),
      );
    } else {
      for (const name of order) results[name] = await load(sides[name]!.url, authorization, SECONDS, sides[name]!.pid);
    }
    rounds.push(results);
    const perSide = names.map(
      (name) =>
        `${name} ${results[name]!.requestsPerSecond.toFixed(0)} req/s ${results[name]!.cpuMsPerDownload.toFixed(3)} ms CPU`,
    );
    log(`round ${round + 1}: ${perSide.join(', ')} (load ${os.loadavg()[0]!.toFixed(1)})`);
  }

  // Two ratios to the bare server per round: of downloads per second (what the issue's goal names; on a busy
  // machine autocannon, one Node process, may be what limits both), and of downloads per CPU-second (each
  // server's own cost, whatever limited the rate: the figure that says what a download costs the portal).
  const ratiosOf = (name: SideName) => ({
    rate: rounds.map((round) => round[name]!.requestsPerSecond / round.bare!.requestsPerSecond),
    cpu: rounds.map((round) => round.bare!.cpuMsPerDownload / round[name]!.cpuMsPerDownload),
  });
  const each = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  log('');
  log(
    '| Server | Downloads/s | p99 ms | CPU ms per download | ÷ bare, downloads/s | ÷ bare, downloads per CPU-second |',
  );
  log('| --- | --- | --- | --- | --- | --- |');
  for (const name of names) {
    const results = rounds.map((round) => round[name]!);
    const ratios = ratiosOf(name);
    const cells = [
      median(results.map((r) => r.requestsPerSecond)).toFixed(0),
      median(results.map((r) => r.p99Ms)).toFixed(1),
      median(results.map((r) => r.cpuMsPerDownload)).toFixed(3),
      name === 'bare' ? '1' : `${median(ratios.rate).toFixed(2)} (${each(ratios.rate)})`,
      name === 'bare' ? '1' : `${median(ratios.cpu).toFixed(2)} (${each(ratios.cpu)})`,
    ];
    log(`| ${sides[name]!.label} | ${cells.join(' | ')} |`);
  }
  log('(medians over the rounds; each round in brackets)');
  const verdict = (ratio: number) => (ratio >= GOAL ? 'goal met' : 'goal NOT met');
  const portalRatios = ratiosOf('portal');
  log('');
  log(
    `portal ÷ bare, goal >= ${GOAL}: downloads/s ${median(portalRatios.rate).toFixed(2)} (${verdict(median(portalRatios.rate))}), ` +
      `downloads per CPU-second ${median(portalRatios.cpu).toFixed(2)} (${verdict(median(portalRatios.cpu))})`,
  );
  let failed = false;
  for (const [index, round] of rounds.entries()) {
    for (const name of names) {
      const result = round[name]!;
      if (result.non2xx || result.errors) {
        log(`WARNING: round ${index + 1}, ${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        failed = true;
      }
    }
  }
  if (failed) {
    for (const name of ['portal', 'compared']) {
      const lines = (await readFile(path.join(workDir, `${name}.log`), 'utf8').catch(() => '')).trim().split('\n');
      if (lines[0]) log(`last lines of ${name}.log:\n${lines.slice(-10).join('\n')}`);
    }
  }
  return failed ? 1 : 0;
}

await runBench('bench:download', cleanups, main);
