// `npm run bench:start`: what a person who has just cloned the repository waits for. Clones this checkout's
// committed HEAD into a scratch folder, gives it this checkout's installed packages as hard links (cp -al,
// what `npm ci` would have put there, without the build caches under node_modules/.cache), then runs
// `npm start` twice and times each from the command to the portal's URL answering with the SPA, with the
// phases start.ts prints. Two rounds, each on a fresh clone: the first with an empty build cache (a machine
// that never built these sources: the SPA and the API are built), the second with the cache the first
// filled (another checkout of the same sources on this machine: a worktree, a second clone). The cache is
// the benchmark's own, in its scratch folder, never the user's. A tool for people, not a timed test.
// `--runs N` changes the number of rounds (the first is always the cold one); `--revision REV` clones that
// revision instead of HEAD (an earlier one, measured in the same session: before and after); BENCH_START_PORT
// (default 7600) is the first of the four ports it uses; `--keep` leaves the clones behind. Answered means: the
// URL serves the login page and the API answers ready.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { statFieldsAfterName, TICKS_PER_SECOND } from '@portal/dev-stack/proc-cpu';
import { REPO_ROOT } from '@portal/dev-stack/stack';
import { runBench, type Cleanups } from './lib/run-bench.ts';

const cleanups: Cleanups = [];
const log = (line: string) => process.stdout.write(`${line}\n`);
const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
const runs = Number(argument('--runs') ?? 2);
const basePort = Number(process.env.BENCH_START_PORT ?? 7600);
const keep = process.argv.includes('--keep');
const revision = argument('--revision');
const READY_TIMEOUT_MS = 180_000;

/** Every installed node_modules folder of the checkout's workspaces and tools, relative to its root. */
async function installedPackageFolders(): Promise<string[]> {
  const folders = ['node_modules'];
  for (const parent of ['apps', 'packages', 'tools', '.']) {
    const entries = await readdir(path.join(REPO_ROOT, parent), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const folder = path.join(parent, entry.name, 'node_modules');
      if (entry.isDirectory() && entry.name !== 'node_modules' && existsSync(path.join(REPO_ROOT, folder)))
        folders.push(path.normalize(folder));
    }
  }
  return [...new Set(folders)];
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
}

async function freshClone(): Promise<string> {
  const clone = await mkdtemp(path.join(os.tmpdir(), 'portal-start-clone-'));
  if (!keep) cleanups.push(() => rm(clone, { recursive: true, force: true }));
  run('git', ['clone', '--quiet', REPO_ROOT, clone], os.tmpdir());
  if (revision) run('git', ['checkout', '--quiet', revision], clone);
  for (const folder of await installedPackageFolders()) {
    run('cp', ['-al', path.join(REPO_ROOT, folder), path.join(clone, folder)], REPO_ROOT);
  }
  // What this checkout's own builds and starts cached: a clone after `npm ci` has none of it.
  await rm(path.join(clone, 'node_modules/.cache'), { recursive: true, force: true });
  return clone;
}

/** The login page served (the SPA's page) and the API ready. */
async function answers(baseUrl: string): Promise<boolean> {
  try {
    const [page, ready] = await Promise.all(
      ['/login', '/api/readyz'].map((route) => fetch(`${baseUrl}${route}`, { signal: AbortSignal.timeout(2000) })),
    );
    const body = await page!.text();
    await ready!.body?.cancel();
    return page!.ok && body.includes('<div id="root"') && ready!.ok;
  } catch {
    return false;
  }
}

/** The clone's own .data, as a person's first start has it. */
function withoutDataDir(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATA_DIR: _dataDir, ...rest } = env;
  return rest;
}

interface StartTiming {
  seconds: number;
  /** CPU seconds the start's processes had used when it answered: what the start costs, whatever the load. */
  cpuSeconds: number | undefined;
  summary: string | undefined;
}

/**
 * User and system time of `rootPid` and every process under it (from /proc: each one's own time and that of
 * its children it has already waited for), in seconds; undefined where there is no /proc.
 */
async function treeCpuSeconds(rootPid: number): Promise<number | undefined> {
  const stats = new Map<number, { parent: number; ticks: number }>();
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => undefined);
    if (!stat) continue;
    // utime, stime, cutime, cstime: the line's fields 14 to 17; its parent is field 4.
    const fields = statFieldsAfterName(stat);
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    stats.set(Number(entry), { parent: Number(fields[1]), ticks });
  }
  if (!stats.has(rootPid)) return undefined;
  const inTree = (pid: number): boolean =>
    pid === rootPid || (pid > 1 && stats.has(pid) && inTree(stats.get(pid)!.parent));
  let ticks = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks;
  return ticks / TICKS_PER_SECOND;
}

/** `npm start` in the clone, timed to the SPA's page answering on its URL; stopped with Ctrl-C after. */
async function timeStart(clone: string, buildCacheDir: string): Promise<StartTiming> {
  const url = `http://localhost:${basePort}`;
  const startedAt = performance.now();
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: clone,
    env: {
      ...withoutDataDir(process.env),
      PORT: String(basePort),
      AUTH_EMULATOR_PORT: String(basePort + 1),
      MAIL_CATCHER_SMTP_PORT: String(basePort + 2),
      MAIL_CATCHER_PORT: String(basePort + 3),
      PORTAL_BUILD_CACHE_DIR: buildCacheDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    // npm, tsx and start.ts: Ctrl-C reaches the whole group, as in a terminal.
    const group = -child.pid;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(group, 'SIGINT');
    const force = setTimeout(() => process.kill(group, 'SIGKILL'), 30_000);
    await exited;
    clearTimeout(force);
  };
  cleanups.push(stop);
  try {
    while (!(await answers(url))) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
      if (performance.now() - startedAt > READY_TIMEOUT_MS) throw new Error(`npm start did not answer:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The URL as npm start prints it: a person waits for that line too, and the page can answer a moment before
    // it (the API serves the SPA as soon as its index is written).
    while (!/is running at/.test(output)) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const cpuSeconds = await treeCpuSeconds(child.pid!);
    // The summary follows the URL by a moment: the API answers before start.ts prints.
    for (let waited = 0; waited < 50 && !/Start-up:.*$/m.test(output); waited++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const summary = /Start-up:.*$/m.exec(output)?.[0]?.trim();
    // As a person's start is used for a while: the SPA's compressed twins, written after the URL (decision
    // 0127), are finished before it is stopped, so the next start and the build cache find a finished build.
    const record = path.join(clone, 'node_modules/.cache/portal-builds/web.inputs-sha256');
    for (let waited = 0; waited < 1200; waited++) {
      if (!(await readFile(record, 'utf8').catch(() => '')).includes('unfinished')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { seconds, cpuSeconds, summary };
  } finally {
    await stop();
    cleanups.splice(cleanups.indexOf(stop), 1);
  }
}

async function main() {
  const load = os.loadavg().map((value) => value.toFixed(1));
  log(`${os.cpus().length} CPUs; load average ${load.join(' ')}; ports ${basePort}-${basePort + 3}`);
  const rows: string[] = [];
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'portal-start-cache-'));
  cleanups.push(() => rm(scratch, { recursive: true, force: true }));
  const buildCacheDir = path.join(scratch, 'builds');
  for (let round = 1; round <= runs; round++) {
    const cache = round === 1 ? 'build cache empty' : 'build cache filled by round 1';
    log(`round ${round} (${cache}): cloning ${REPO_ROOT} (${revision ?? 'HEAD'}) and linking its packages...`);
    const clone = await freshClone();
    if (keep) log(`  clone: ${clone}`);
    for (const which of ['first', 'second'] as const) {
      const timing = await timeStart(clone, buildCacheDir);
      const cpu = timing.cpuSeconds === undefined ? 'n/a' : `${timing.cpuSeconds.toFixed(1)} s`;
      log(`  ${which} npm start answered in ${timing.seconds.toFixed(1)} s (CPU ${cpu})`);
      if (timing.summary) log(`    ${timing.summary}`);
      rows.push(
        `| ${round}, ${cache} | ${which} | ${timing.seconds.toFixed(1)} s | ${cpu} | ${which === 'first' ? '≤ 10 s' : '≤ 4 s'} | ${timing.summary ?? ''} |`,
      );
    }
  }
  log('');
  log('| Round | npm start | To the URL printed and answering | CPU until then | Goal | Phases |');
  log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) log(row);
  return 0;
}

await runBench('bench:start', cleanups, main);
