/**
 * Runs the API suite against PGlite, the invoice tests again with their invoices in the object store (a local S3
 * server each file starts), and the files that meet what PostgreSQL does differently again against PostgreSQL
 * (DATABASE_URL, else the local test database scripts/setup-machine.sh makes; unreachable, the run stops at once
 * saying so), several processes at a time. Each concurrent slot has an Auth emulator and a PostgreSQL database of
 * its own, and every test file empties both before each test, so files never see each other's accounts or rows.
 * `API_TEST_CONCURRENCY` sets the number of slots (default: processors + 2, since much of a test file's time is spent waiting on the emulator, the
 * database or a timer: on 2 cores the whole suite took 209 s on 3 slots and 185 s on 4).
 *
 * What a file needs is in its name, before `.test.ts` (`invoices-get.stores.test.ts`):
 * - `.stores`: it stores or serves invoice bytes, so it runs on both invoice stores (the folder and the bucket);
 * - `.databases`: it meets what PostgreSQL does differently (requests racing for a row, NOTIFY between processes,
 *   the pool, migrations, backup and restore), so it runs on both databases; untagged files run on PGlite only;
 * - `.postgres`: it tests what only PostgreSQL has (a network connection to lose): the PostgreSQL pass alone;
 * - `.own-process`: it changes something the whole process shares (an environment variable, a process-wide
 *   listener, the emulator itself), so it gets a process of its own; a comment at its top says what.
 *
 * Other files share a process in batches (Node's `--test-isolation=none`, one file after another): loading the
 * API's modules took about half of a file's time when each had a process of its own.
 *
 * A whole run keeps a ledger of the statements and store calls each process made, and fails when the PostgreSQL
 * or object-store pass missed one the PGlite pass met (helpers/pass-coverage.ts, decision 0124). Files named on
 * the command line run on every pass asked for (the object store only for `.stores`), with no ledger.
 *
 * Usage: `npm run test:api [-- file ...]`; `API_TEST_PASSES=pglite,object,postgres` picks passes;
 * `API_TEST_BATCH` sets how many files share a process (default 8; 1 gives every file its own). Each process's
 * output is printed whole once it ends; the slowest processes and a closing "api: N passed, N failed" line follow.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  findFreePort,
  freshDatabaseBeside,
  NODE_COMPILE_CACHE,
  requireTestDatabase,
  startAuthEmulator,
  testDatabaseUrl,
  type AuthEmulator,
} from '@portal/dev-stack';
import { reapedChildrenCpu } from '@portal/dev-stack/proc-cpu';
import { checkPassesMeetAll, LEDGER_DIR_ENV } from './helpers/pass-coverage.ts';
import { writePgliteTemplate } from './helpers/pglite-template.ts';

const concurrency = Math.max(1, Number(process.env.API_TEST_CONCURRENCY) || os.availableParallelism() + 2);
const chosen = (process.env.API_TEST_PASSES ?? 'pglite,object,postgres').split(',');
// The PostgreSQL pass needs its database; a run of the other passes alone does not ask for one.
const databaseUrl = chosen.includes('postgres') ? testDatabaseUrl() : undefined;
if (databaseUrl) await requireTestDatabase(databaseUrl, 'api');

// Node 20's --test takes no glob patterns (21+ does), and finds only .js files on its own: list them here.
const files = process.argv.slice(2);
/** Files named on the command line run on every pass asked for; a whole run lets each file's tags decide. */
const wholeSuite = files.length === 0;
if (wholeSuite) {
  for (const dir of ['src', 'test']) {
    const found = await readdir(dir, { recursive: true });
    files.push(...found.filter((file) => file.endsWith('.test.ts')).map((file) => path.join(dir, file)));
  }
  files.sort();
}
/** The tags in a test file's name between its stem and `.test.ts`: `a.own-process.postgres.test.ts` → both. */
const tagsOf = (file: string) => new Set(path.basename(file, '.test.ts').split('.').slice(1));
const postgresOnly = (file: string) => tagsOf(file).has('postgres');
const isInvoiceTest = (file: string) => tagsOf(file).has('stores');
const onBothDatabases = (file: string) => tagsOf(file).has('databases');
const KNOWN_TAGS = new Set(['stores', 'databases', 'postgres', 'own-process']);
// A misspelt tag would silently drop a file from a pass: refused before anything starts.
for (const file of files) {
  const unknown = [...tagsOf(file)].filter((tag) => !KNOWN_TAGS.has(tag));
  if (unknown.length > 0)
    throw new Error(`${file}: unknown test tag ${unknown.join(', ')} (known: ${[...KNOWN_TAGS].join(', ')})`);
}

interface Job {
  pass: 'PGlite' | 'object store' | 'PostgreSQL';
  /** Run one after another in one process. */
  files: string[];
}

const batchSize = Math.max(1, Number(process.env.API_TEST_BATCH) || 8);
const ownProcess = (file: string) => tagsOf(file).has('own-process');

/** A pass's files as jobs: those that need a process of their own first (the long fault tests), then batches. */
function jobsOf(pass: Job['pass'], passFiles: string[]): Job[] {
  const alone: Job[] = [];
  const shared: string[] = [];
  for (const file of passFiles) {
    if (batchSize === 1 || ownProcess(file)) alone.push({ pass, files: [file] });
    else shared.push(file);
  }
  const batches = Math.ceil(shared.length / batchSize);
  // Dealt out like cards, so neighbours in the tree (often alike in length) land in different batches.
  const dealt = Array.from({ length: batches }, (_, index) => shared.filter((_, at) => at % batches === index));
  return [...alone, ...dealt.map((batch) => ({ pass, files: batch }))];
}

const jobs: Job[] = [];
if (chosen.includes('pglite'))
  jobs.push(
    ...jobsOf(
      'PGlite',
      files.filter((file) => !postgresOnly(file)),
    ),
  );
if (chosen.includes('object')) {
  jobs.push(
    ...jobsOf(
      'object store',
      files.filter((file) => !postgresOnly(file) && isInvoiceTest(file)),
    ),
  );
}
if (databaseUrl)
  jobs.push(
    ...jobsOf(
      'PostgreSQL',
      files.filter((file) => !wholeSuite || postgresOnly(file) || onBothDatabases(file)),
    ),
  );
const fileCount = jobs.reduce((sum, job) => sum + job.files.length, 0);

interface Slot {
  /** firebase-tools finds a running emulator by its project id: one of its own per slot. */
  projectId: string;
  emulator: AuthEmulator;
  databaseUrl: string | undefined;
}

/** A database of the slot's own beside the one in DATABASE_URL, made afresh (its role may create databases). */
async function createSlotDatabase(slot: number): Promise<string | undefined> {
  return databaseUrl ? freshDatabaseBeside(databaseUrl, `api_${slot}`) : undefined;
}

async function dropSlotDatabase(slotUrl: string | undefined) {
  if (!slotUrl || !databaseUrl) return;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(slotUrl).pathname.slice(1)}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

const workers = Math.min(concurrency, jobs.length);
const templateDir = await mkdtemp(path.join(os.tmpdir(), 'portal-pglite-template-'));
// A whole run notes what every process asked of the database and the store, for checkPassesMeetAll below.
const ledgerDir = wholeSuite ? await mkdtemp(path.join(templateDir, 'ledgers-')) : undefined;
const LEDGER_MODULE = fileURLToPath(new URL('./helpers/backend-ledger.ts', import.meta.url));
const slots = await Promise.all(
  Array.from({ length: workers }, async (_, index): Promise<Slot> => {
    const projectId = `demo-portal-test-${index + 1}`;
    const [emulator, slotUrl] = await Promise.all([
      startAuthEmulator({
        port: await findFreePort(),
        projectId,
        workDir: await mkdtemp(path.join(os.tmpdir(), 'portal-emulator-')),
      }),
      createSlotDatabase(index + 1),
    ]);
    return { projectId, emulator, databaseUrl: slotUrl };
  }),
);
// Every test file opens PGlite databases (both passes: some test the embedded database alone). Written after
// the emulators are up: PGlite's initdb holds this process's event loop, and their readiness checks with it.
const templateEnv = await writePgliteTemplate(path.join(templateDir, 'empty-database.tar'));
process.stdout.write(`# API tests: ${fileCount} file runs in ${jobs.length} processes on ${workers} slots\n`);

interface Outcome extends Job {
  seconds: number;
  /** CPU-seconds the process and the processes it waited for used (Linux; 0 where /proc is not there). */
  cpuSeconds: number;
  passed: number;
  failed: number;
  exitCode: number | null;
  /** What the process printed: repeated after the summary when it failed, where the tail of a CI log shows it. */
  text: string;
  /** The files that failed on the first run and passed alone on the second (CI only, as the browser tests do). */
  flaky?: string[];
}

// In CI a failed file runs once more, as Playwright retries there: a timing test that loses a race on a busy
// 2-core machine should not sink a run, but it is named below as flaky; one that fails twice fails the run.
const retryFailed = process.env.CI === 'true';

/**
 * A hang must cost minutes, not the CI run's whole budget: each test has a deadline (Node's own, so the others
 * in its file go on), and each process one for what no test owns (a handle that keeps it from exiting). Both
 * are sized for a busy 2-core machine: the slowest test, a fault test, took about a minute there.
 */
const TEST_DEADLINE_MS = 180_000;
const jobDeadlineMs = (job: Job) => (240 + 120 * job.files.length) * 1000;

/** Read as each test process is reaped: its CPU-seconds, with the processes it waited for. */
const cpuOfChildrenReapedSinceLastRead = reapedChildrenCpu();

const describeJob = (job: Job) => (job.files.length === 1 ? job.files[0]! : `${job.files.length} files`);

/** The files a failed process's failing tests are in ("test at <file>:<line>:<column>"); all, if it names none. */
function failedFiles(job: Job, text: string): string[] {
  const named = new Set([...text.matchAll(/^test at (.+?):\d+:\d+$/gm)].map((match) => match[1]));
  const failed = job.files.filter((file) => named.has(file));
  return failed.length > 0 ? failed : job.files;
}

/** A job's files in one process, its output kept until it ends so processes side by side do not interleave. */
function runJob(job: Job, slot: Slot, attempt = 1): Promise<Outcome> {
  // --no-memory-protection-keys: on CPUs with protection keys (PKU), V8 24's tracking of its code pages loses
  // count under the churn of PGlite (WebAssembly) databases opened and closed in one process, and aborts it
  // ("Check failed: jit_page.has_value()"). The server itself opens one database and keeps it (decision 0015).
  // No tsx: Node strips the types itself (the API, the contract and the dev stack are erasable-only
  // TypeScript), which saves each file a second of loading through tsx's hooks (decision 0051).
  const args = [
    '--no-memory-protection-keys',
    ...(ledgerDir ? ['--import', LEDGER_MODULE] : []),
    '--test',
    '--test-isolation=none',
    '--test-reporter=spec',
    `--test-timeout=${TEST_DEADLINE_MS}`,
  ];
  const started = performance.now();
  const child = spawn(process.execPath, [...args, ...job.files], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...templateEnv,
      FIREBASE_AUTH_EMULATOR_HOST: slot.emulator.host,
      FIREBASE_PROJECT_ID: slot.projectId,
      DATABASE_URL: job.pass === 'PostgreSQL' ? (slot.databaseUrl ?? '') : '',
      TEST_INVOICE_STORE: job.pass === 'object store' ? 'object' : 'folder',
      // V8's compiled code of the files every test loads, kept on disk between files.
      NODE_COMPILE_CACHE,
      ...(ledgerDir && { [LEDGER_DIR_ENV]: ledgerDir }),
    },
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const deadlineMs = jobDeadlineMs(job);
  const deadline = setTimeout(() => {
    output.push(
      Buffer.from(
        `\n# ${describeJob(job)}: still running after ${deadlineMs / 1000} s (a handle left open, or a hang outside a test); stopped\n`,
      ),
    );
    child.kill('SIGKILL');
  }, deadlineMs);
  return new Promise((resolve) => {
    child.on('close', async (exitCode, signal) => {
      clearTimeout(deadline);
      const cpuSeconds = await cpuOfChildrenReapedSinceLastRead();
      const text = Buffer.concat(output).toString();
      const seconds = (performance.now() - started) / 1000;
      const count = (label: string) => Number(new RegExp(`^ℹ ${label} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      // V8 itself aborting (a signal, or its fatal-error exit) is not a test failure: run the files once more.
      const engineAbort = signal === 'SIGTRAP' || signal === 'SIGABRT' || /Check failed:|Fatal error in/.test(text);
      process.stdout.write(
        `\n# ${job.pass}: ${job.files.join(', ')} (${seconds.toFixed(1)} s, ${cpuSeconds.toFixed(1)} CPU-s)\n${text}`,
      );
      if (exitCode !== 0 && engineAbort && attempt === 1) {
        process.stdout.write(
          `# ${describeJob(job)}: Node's engine aborted the process (not a test failure); running again\n`,
        );
        resolve(runJob(job, slot, 2));
        return;
      }
      const failed = count('fail') + (exitCode !== 0 && count('fail') === 0 ? 1 : 0);
      const outcome = { ...job, seconds, cpuSeconds, passed: count('pass'), failed, exitCode, text };
      if (exitCode === 0 || !retryFailed || attempt > 1) {
        resolve(outcome);
        return;
      }
      // The failing files once more, each in a process of its own: a file that then passes was flaky (or
      // disturbed by a neighbour); the passes of the others in the batch stand.
      const again = failedFiles(job, text);
      process.stdout.write(`# ${again.join(', ')}: failed; running once more to tell a flaky test from a broken one\n`);
      resolve(
        (async () => {
          const retried: Outcome[] = [];
          for (const file of again) retried.push(await runJob({ pass: job.pass, files: [file] }, slot, 2));
          const stillFailing = retried.filter((second) => second.exitCode !== 0);
          const failedNow = stillFailing.reduce((sum, second) => sum + second.failed, 0);
          return {
            ...outcome,
            seconds: outcome.seconds + retried.reduce((sum, second) => sum + second.seconds, 0),
            cpuSeconds: outcome.cpuSeconds + retried.reduce((sum, second) => sum + second.cpuSeconds, 0),
            // The first run's passes stand; its failures that passed alone count as passed.
            passed: outcome.passed + Math.max(0, outcome.failed - failedNow),
            failed: failedNow,
            exitCode: stillFailing[0]?.exitCode ?? 0,
            flaky: stillFailing.length === 0 ? again : undefined,
            text: stillFailing.length === 0 ? text : stillFailing.map((second) => second.text).join('\n'),
          };
        })(),
      );
    });
  });
}

/** The spec reporter's closing "failing tests" section (or the output's tail when it has none), indented. */
function failureReport(text: string): string {
  const section = text.lastIndexOf('✖ failing tests:');
  const lines = (section >= 0 ? text.slice(section) : text)
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.includes('(node:'));
  return `${lines
    .slice(0, 60)
    .map((line) => `#   ${line}`)
    .join('\n')}\n`;
}

/**
 * The files with a process of their own (the long fault tests) first, so no slot is left with one at the end;
 * then the passes' batches dealt in turn (PGlite, object store, PostgreSQL, PGlite, …). A PostgreSQL batch
 * spends most of its time waiting on the server and the clock, a PGlite batch on the CPU: queued pass after
 * pass, the PostgreSQL batches ran last, side by side, with the cores half idle for the last 40 s.
 * Within a pass the batches with the most test source go first: the bytes of a batch's files follow its time
 * well enough, and the heaviest PGlite batch, queued last, ran alone for the last 30 s of the suite.
 */
async function interleavedByPass(batches: Job[]): Promise<Job[]> {
  const sourceBytes = new Map<Job, number>();
  for (const job of batches) {
    let bytes = 0;
    for (const file of job.files) bytes += (await stat(file)).size;
    sourceBytes.set(job, bytes);
  }
  const heaviestFirst = [...batches].sort((a, b) => sourceBytes.get(b)! - sourceBytes.get(a)!);
  const passes = [...new Set(batches.map((job) => job.pass))];
  const byPass = passes.map((pass) => heaviestFirst.filter((job) => job.pass === pass));
  const longest = Math.max(0, ...byPass.map((passBatches) => passBatches.length));
  return Array.from({ length: longest }, (_, turn) => byPass.flatMap((passBatches) => passBatches[turn] ?? [])).flat();
}
const queue = [
  ...jobs.filter((job) => job.files.length === 1),
  ...(await interleavedByPass(jobs.filter((job) => job.files.length > 1))),
];
const outcomes: Outcome[] = [];
const started = performance.now();
await Promise.all(
  slots.map(async (slot) => {
    for (let job = queue.shift(); job; job = queue.shift()) outcomes.push(await runJob(job, slot));
  }),
);
const wallSeconds = (performance.now() - started) / 1000;

await Promise.all(slots.map(async (slot) => Promise.all([slot.emulator.stop(), dropSlotDatabase(slot.databaseUrl)])));
// Reaped last: the slots' Auth emulators, which every test process called.
const emulatorCpuSeconds = await cpuOfChildrenReapedSinceLastRead();
const unmet = ledgerDir
  ? await checkPassesMeetAll(ledgerDir, {
      postgres: chosen.includes('pglite') && Boolean(databaseUrl),
      objectStore: chosen.includes('object') && (chosen.includes('pglite') || Boolean(databaseUrl)),
    })
  : [];
await rm(templateDir, { recursive: true, force: true });

const slowest = [...outcomes].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
const cpuOf = (pass?: Job['pass']) =>
  outcomes.filter((outcome) => !pass || outcome.pass === pass).reduce((sum, outcome) => sum + outcome.cpuSeconds, 0);
process.stdout.write(
  `\n# Slowest processes (${wallSeconds.toFixed(0)} s in all on ${workers} slots; test processes used ${cpuOf().toFixed(0)} CPU-s: ` +
    `PGlite ${cpuOf('PGlite').toFixed(0)}, object store ${cpuOf('object store').toFixed(0)}, PostgreSQL ${cpuOf('PostgreSQL').toFixed(0)}; the Auth emulators ${emulatorCpuSeconds.toFixed(0)})\n`,
);
for (const outcome of slowest) {
  process.stdout.write(
    `#   ${outcome.seconds.toFixed(1).padStart(6)} s ${outcome.cpuSeconds.toFixed(1).padStart(6)} CPU-s  ${outcome.pass.padEnd(12)} ${outcome.files.join(', ')}\n`,
  );
}
const failedJobs = outcomes.filter((outcome) => outcome.exitCode !== 0);
for (const outcome of outcomes.filter((outcome) => outcome.flaky)) {
  process.stdout.write(
    `# FLAKY (failed, then passed alone): ${outcome.pass} ${outcome.flaky?.join(', ')}; the first run's failures:\n`,
  );
  process.stdout.write(failureReport(outcome.text));
}
for (const outcome of failedJobs) {
  process.stdout.write(`# FAILED: ${outcome.pass} ${failedFiles(outcome, outcome.text).join(', ')}\n`);
  process.stdout.write(failureReport(outcome.text));
}
const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0);
const failed = outcomes.reduce((sum, outcome) => sum + outcome.failed, 0);
for (const line of unmet) process.stdout.write(`${line}\n`);
process.stdout.write(`api: ${passed} passed, ${failed} failed\n`);
process.exit(failedJobs.length > 0 || unmet.length > 0 ? 1 : 0);
