// `npm run bench:scim`: a company directory's first sync through SCIM, as Entra ID and Okta make it: for each
// person, look them up (GET /Users?filter=userName eq "…"), then create them (POST /Users), a few people at
// a time. Runs the API from its sources on the Auth emulator (every user is a real sign-in account there)
// and PGlite in a scratch folder, or on PostgreSQL when DATABASE_URL is set. Answers 429 are waited out
// (Retry-After) and counted, as directories do. While the sync runs, a lookup made without signing in is sent
// every few hundred people: none may be refused, since SCIM spends its own allowance, not the anonymous ones.
// Prints the total time, people per second, and the median and p95 of each call.
// Options: BENCH_SCIM_USERS (default 10000), BENCH_SCIM_CONCURRENCY (default 4; Entra ID runs a few at once).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, startStack } from '@portal/dev-stack';

const USERS = Number(process.env.BENCH_SCIM_USERS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_SCIM_CONCURRENCY ?? 4);
const TOKEN = 'bench-scim-token-of-at-least-32-characters';
const CONTENT_TYPE = 'application/scim+json';
const log = (line = '') => process.stdout.write(`${line}\n`);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-scim-'));
const stack = await startStack({
  port: await findFreePort(),
  emulatorPort: await findFreePort(),
  dataDir,
  env: { SCIM_TOKEN: TOKEN, LOG_LEVEL: 'warn', IDENTITY_TIMEOUT_MS: '30000' },
  log: (line) => process.stderr.write(`${line}\n`),
});
const base = `${stack.url}/scim/v2`;

const timings = { lookup: [] as number[], create: [] as number[] };
let waits429 = 0;
let anonymousRefused = 0;
let anonymousProbes = 0;

async function call(kind: keyof typeof timings, url: string, init: RequestInit = {}) {
  for (;;) {
    const started = performance.now();
    const response = await fetch(url, {
      ...init,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': CONTENT_TYPE },
    });
    const body = await response.text();
    if (response.status === 429) {
      waits429++;
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    timings[kind].push(performance.now() - started);
    if (response.status >= 400) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${body}`);
    return JSON.parse(body) as { totalResults?: number };
  }
}

/** A lookup as the login screen makes it, without signing in: refused only if SCIM had spent its budget. */
async function probeAnonymous() {
  anonymousProbes++;
  const response = await fetch(`${stack.url}/api/users/user@example.com`);
  await response.arrayBuffer();
  if (response.status === 429) anonymousRefused++;
}

const email = (i: number) => `scim.person${String(i).padStart(6, '0')}@directory.example.com`;
let next = 0;
const started = performance.now();
async function worker() {
  for (let i = next++; i < USERS; i = next++) {
    const filter = encodeURIComponent(`userName eq "${email(i)}"`);
    const found = await call('lookup', `${base}/Users?filter=${filter}`);
    if (found.totalResults === 0) {
      await call('create', `${base}/Users`, {
        method: 'POST',
        body: JSON.stringify({
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: email(i),
          externalId: `directory-object-${i}`,
          active: true,
          emails: [{ value: email(i), type: 'work', primary: true }],
          name: { givenName: 'Person', familyName: String(i) },
        }),
      });
    }
    if (i % 500 === 0) {
      await probeAnonymous();
      log(`  ${i} people after ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
}

try {
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const total = await call('lookup', `${base}/Users?count=0`);
  const stats = (samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
    return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms (${samples.length} calls)`;
  };
  log();
  log(
    `SCIM first sync of ${USERS.toLocaleString('en')} people, ${CONCURRENCY} at a time (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, Auth emulator):`,
  );
  log(`  total            ${seconds.toFixed(1)} s  (${(USERS / seconds).toFixed(1)} people/s)`);
  log(`  lookup (filter)  ${stats(timings.lookup)}`);
  log(`  create (POST)    ${stats(timings.create)}`);
  log(`  429 waits        ${waits429}`);
  log(`  users listed     ${total.totalResults}`);
  log(`  anonymous lookups refused during the sync: ${anonymousRefused} of ${anonymousProbes}`);
  if (anonymousRefused > 0) process.exitCode = 1;
  if ((total.totalResults ?? 0) < USERS) {
    log(`  FAILED: ${total.totalResults} users listed, ${USERS} expected`);
    process.exitCode = 1;
  }
} finally {
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
}
