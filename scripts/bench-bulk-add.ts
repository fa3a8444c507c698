// `npm run bench:bulk-add`: one bulk add of 1,000 new addresses (BENCH_BULK_ADDRESSES), timed through the
// domain against the Auth emulator, on PGlite and then on PostgreSQL when DATABASE_URL is set (a scratch
// database it creates and drops). Both sides in one run, alternating (BENCH_RUNS rounds, default 3): the
// batched add and the address-by-address add (the single add for each, four at a time), each on addresses
// new to the list and to the emulator, after an untimed round of 50 each. Prints the medians, the ratio, and
// checks every address was added and audited. Goal: the batched add of 1,000 within 3 s.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '@portal/api/config.ts';
import type { DatabaseTarget } from '@portal/api/db/client.ts';
import { buildDomain } from '@portal/api/domain.ts';
import { openInfrastructure } from '@portal/api/infrastructure.ts';
import { createLogger } from '@portal/api/observability/logging.ts';
import { createBulkUserAdmin } from '@portal/api/users/bulk-user-admin.ts';
import { findFreePort, startAuthEmulator } from '@portal/dev-stack';

const ADDRESSES = Number(process.env.BENCH_BULK_ADDRESSES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GOAL_MS = 3000;
const log = (line = '') => process.stdout.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function benchTarget(label: string, target: DatabaseTarget, emulatorHost: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-bulk-'));
  const config = loadConfig({
    FIREBASE_PROJECT_ID: 'demo-portal-bench',
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
  });
  const infrastructure = await openInfrastructure(config, { databaseTarget: target });
  const logger = createLogger(config);
  const domain = buildDomain(infrastructure, { log: logger });
  await domain.start();
  const sides = {
    batched: createBulkUserAdmin({ userAdmin: domain.userAdmin, log: logger, batched: true }),
    'one by one': createBulkUserAdmin({ userAdmin: domain.userAdmin, log: logger, batched: false }),
  };
  const times: Record<keyof typeof sides, number[]> = { batched: [], 'one by one': [] };
  try {
    // Untimed: the first calls warm the database (PGlite compiles its WebAssembly), the emulator and the JIT.
    for (const [side, bulk] of Object.entries(sides)) {
      const emails = Array.from({ length: 50 }, (_, i) => `warm-${side.replace(/ /g, '')}-${i}@example.com`);
      await bulk.addUsers({ inputs: emails, actor: 'bench-admin@example.com' });
    }
    for (let run = 0; run < RUNS; run++) {
      for (const side of Object.keys(sides) as (keyof typeof sides)[]) {
        const tag = `${label.split(' ')[0]!.toLowerCase()}-${side.replace(/ /g, '')}-${run}-${Date.now()}`;
        const emails = Array.from({ length: ADDRESSES }, (_, i) => `bulk-${tag}-${i}@example.com`);
        const startedAt = performance.now();
        const results = await sides[side].addUsers({ inputs: emails, actor: 'bench-admin@example.com' });
        times[side].push(performance.now() - startedAt);
        const added = results.filter((result) => result.outcome === 'added').length;
        if (added !== ADDRESSES) throw new Error(`${side}: ${added} of ${ADDRESSES} added`);
        for (const email of [emails[0]!, emails.at(-1)!]) {
          const audited = await domain.audit.list({ limit: 5, offset: 0, user: email });
          if (!audited.some((entry) => entry.action === 'users.add' && entry.outcome === 'ok'))
            throw new Error(`${side}: ${email} was added without its audit line`);
        }
      }
    }
  } finally {
    await domain.close();
    await infrastructure.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  const batched = median(times.batched);
  const oneByOne = median(times['one by one']);
  log(`\n${label}: bulk add of ${ADDRESSES.toLocaleString('en')} new addresses, ${RUNS} runs each, alternating`);
  log(`  ${'side'.padEnd(12)} ${'median'.padStart(9)}   runs`);
  for (const [side, values] of Object.entries(times))
    log(
      `  ${side.padEnd(12)} ${`${(median(values) / 1000).toFixed(2)} s`.padStart(9)}   ${values.map((ms) => (ms / 1000).toFixed(2)).join(' ')}`,
    );
  log(
    `  one by one ÷ batched: ${(oneByOne / batched).toFixed(1)}×; batched ${batched <= GOAL_MS ? 'within' : 'OVER'} the ${GOAL_MS / 1000} s goal`,
  );
  return batched <= GOAL_MS;
}

async function withScratchPostgres<T>(url: string, run: (scratchUrl: string) => Promise<T>): Promise<T | undefined> {
  const name = `portal_bench_bulk_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } catch (error) {
    log(`\nPostgreSQL: skipped, could not create a scratch database (${(error as Error).message}).`);
    await admin.end();
    return undefined;
  }
  try {
    const scratch = new URL(url);
    scratch.pathname = `/${name}`;
    return await run(scratch.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-bulk-emulator-'));
const emulator = await startAuthEmulator({ port: await findFreePort(), projectId: 'demo-portal-bench', workDir });
try {
  const results = [await benchTarget('PGlite (embedded)', { kind: 'pglite' }, emulator.host)];
  if (process.env.DATABASE_URL) {
    results.push(
      (await withScratchPostgres(process.env.DATABASE_URL, (url) =>
        benchTarget('PostgreSQL', { kind: 'postgres', url }, emulator.host),
      )) ?? true,
    );
  } else log('\nPostgreSQL: skipped (set DATABASE_URL to include it).');
  process.exitCode = results.every(Boolean) ? 0 : 1;
} finally {
  await emulator.stop();
  await rm(workDir, { recursive: true, force: true });
}
