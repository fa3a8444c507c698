/**
 * Runs the API suite against PGlite, every invoice test again with its invoices in the object store (a local S3
 * server each file starts; see isInvoiceTest), and the whole suite again against PostgreSQL (DATABASE_URL, else
 * the local test database scripts/setup-machine.sh makes; unreachable, the run stops at once saying so), several
 * test files at a time. Each concurrent slot has an Auth emulator and a PostgreSQL database of its own, and every
 * test file empties both before each test, so files never see each other's accounts or rows. Files named
 * `*.postgres.test.ts` test what only PostgreSQL has (a network connection to lose) and run in the PostgreSQL
 * pass alone. `API_TEST_CONCURRENCY` sets the number of slots (default: processors + 1, since much of a test
 * file's time is spent waiting on the emulator, the database or a timer).
 *
 * Usage: `npm run test:api [-- file ...]`; `API_TEST_PASSES=pglite,object,postgres` picks passes. Each file's output is printed whole once it ends; the slowest
 * files and a closing "api: N passed, N failed" line follow.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  findFreePort,
  NODE_COMPILE_CACHE,
  requireTestDatabase,
  startAuthEmulator,
  testDatabaseUrl,
  type AuthEmulator,
} from '@portal/dev-stack';
import { writePgliteTemplate } from './helpers/pglite-template.ts';

const concurrency = Math.max(1, Number(process.env.API_TEST_CONCURRENCY) || os.availableParallelism() + 1);
const chosen = (process.env.API_TEST_PASSES ?? 'pglite,object,postgres').split(',');
// The PostgreSQL pass needs its database; a run of the other passes alone does not ask for one.
const databaseUrl = chosen.includes('postgres') ? testDatabaseUrl() : undefined;
if (databaseUrl) await requireTestDatabase(databaseUrl);

// Node 20's --test takes no glob patterns (21+ does), and finds only .js files on its own: list them here.
const files = process.argv.slice(2);
if (files.length === 0) {
  for (const dir of ['src', 'test']) {
    const found = await readdir(dir, { recursive: true });
    files.push(...found.filter((file) => file.endsWith('.test.ts')).map((file) => path.join(dir, file)));
  }
  files.sort();
}
const postgresOnly = (file: string) => file.endsWith('.postgres.test.ts');

/**
 * The tests of storing and serving invoice bytes, which run on both stores: the invoice, backup and restore
 * tests by their names, and any other file that asks for its pass's store (invoiceStoreKind()).
 */
const isInvoiceTest = async (file: string) =>
  /invoice|backup|restore/.test(file) || (await readFile(file, 'utf8')).includes('invoiceStoreKind()');

interface Job {
  pass: 'PGlite' | 'object store' | 'PostgreSQL';
  file: string;
}
const jobs: Job[] = [];
if (chosen.includes('pglite')) {
  jobs.push(...files.filter((file) => !postgresOnly(file)).map((file) => ({ pass: 'PGlite' as const, file })));
}
if (chosen.includes('object')) {
  for (const file of files) {
    if (!postgresOnly(file) && (await isInvoiceTest(file))) jobs.push({ pass: 'object store', file });
  }
}
if (databaseUrl) jobs.push(...files.map((file) => ({ pass: 'PostgreSQL' as const, file })));

interface Slot {
  /** firebase-tools finds a running emulator by its project id: one of its own per slot. */
  projectId: string;
  emulator: AuthEmulator;
  databaseUrl: string | undefined;
}

/** A database of the slot's own beside the one in DATABASE_URL, made afresh (its role may create databases). */
async function createSlotDatabase(slot: number): Promise<string | undefined> {
  if (!databaseUrl) return undefined;
  const url = new URL(databaseUrl);
  const name = `${url.pathname.slice(1)}_api_${slot}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
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
process.stdout.write(`# API tests: ${jobs.length} files on ${workers} slots\n`);

interface Outcome extends Job {
  seconds: number;
  passed: number;
  failed: number;
  exitCode: number | null;
  /** What the file printed: repeated after the summary when it failed, where the tail of a CI log shows it. */
  text: string;
  /** Failed on its first run and passed on its second (CI only, as the browser tests do). */
  flaky?: boolean;
}

// In CI a failed file runs once more, as Playwright retries there: a timing test that loses a race on a busy
// 2-core machine should not sink a run, but it is named below as flaky; one that fails twice fails the run.
const retryFailed = process.env.CI === 'true';

/** One file in its own process, its output kept until it ends so files running side by side do not interleave. */
function runFile(job: Job, slot: Slot, attempt = 1): Promise<Outcome> {
  // --no-memory-protection-keys: on CPUs with protection keys (PKU), V8 24's tracking of its code pages loses
  // count under the churn of PGlite (WebAssembly) databases opened and closed in one process, and aborts it
  // ("Check failed: jit_page.has_value()"). The server itself opens one database and keeps it (decision 0015).
  // No tsx: Node strips the types itself (the API, the contract and the dev stack are erasable-only
  // TypeScript), which saves each file a second of loading through tsx's hooks (decision 0051).
  const args = ['--no-memory-protection-keys', '--test', '--test-reporter=spec', job.file];
  const started = performance.now();
  const child = spawn(process.execPath, args, {
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
    },
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (exitCode, signal) => {
      const text = Buffer.concat(output).toString();
      const seconds = (performance.now() - started) / 1000;
      const count = (label: string) => Number(new RegExp(`^ℹ ${label} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      // V8 itself aborting (a signal, or its fatal-error exit) is not a test failure: run the file once more.
      const engineAbort = signal === 'SIGTRAP' || signal === 'SIGABRT' || /Check failed:|Fatal error in/.test(text);
      process.stdout.write(`\n# ${job.pass}: ${job.file} (${seconds.toFixed(1)} s)\n${text}`);
      if (exitCode !== 0 && engineAbort && attempt === 1) {
        process.stdout.write(
          `# ${job.file}: Node's engine aborted the process (not a test failure); running it again\n`,
        );
        resolve(runFile(job, slot, 2));
        return;
      }
      const failed = count('fail') + (exitCode !== 0 && count('fail') === 0 ? 1 : 0);
      const outcome = { ...job, seconds, passed: count('pass'), failed, exitCode, text };
      if (exitCode !== 0 && retryFailed && attempt === 1) {
        process.stdout.write(`# ${job.file}: failed; running it once more to tell a flaky test from a broken one\n`);
        resolve(
          runFile(job, slot, 2).then((second) => (second.exitCode === 0 ? { ...second, flaky: true, text } : second)),
        );
        return;
      }
      resolve(outcome);
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

const queue = [...jobs];
const outcomes: Outcome[] = [];
const started = performance.now();
await Promise.all(
  slots.map(async (slot) => {
    for (let job = queue.shift(); job; job = queue.shift()) outcomes.push(await runFile(job, slot));
  }),
);
const wallSeconds = (performance.now() - started) / 1000;

await Promise.all(slots.map(async (slot) => Promise.all([slot.emulator.stop(), dropSlotDatabase(slot.databaseUrl)])));
await rm(templateDir, { recursive: true, force: true });

const slowest = [...outcomes].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
process.stdout.write(`\n# Slowest files (${wallSeconds.toFixed(0)} s in all on ${workers} slots)\n`);
for (const outcome of slowest) {
  process.stdout.write(`#   ${outcome.seconds.toFixed(1).padStart(6)} s  ${outcome.pass.padEnd(12)} ${outcome.file}\n`);
}
const failedFiles = outcomes.filter((outcome) => outcome.exitCode !== 0);
for (const outcome of outcomes.filter((outcome) => outcome.flaky)) {
  process.stdout.write(`# FLAKY (failed, then passed): ${outcome.pass} ${outcome.file}; its first run's failures:\n`);
  process.stdout.write(failureReport(outcome.text));
}
for (const outcome of failedFiles) {
  process.stdout.write(`# FAILED: ${outcome.pass} ${outcome.file}\n`);
  process.stdout.write(failureReport(outcome.text));
}
const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0);
const failed = outcomes.reduce((sum, outcome) => sum + outcome.failed, 0);
process.stdout.write(`api: ${passed} passed, ${failed} failed\n`);
process.exit(failedFiles.length > 0 ? 1 : 0);
