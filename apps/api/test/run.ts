/**
 * Runs the API suite against PGlite, then every invoice test again on the object store (a local S3 server
 * each file starts; see isInvoiceTest), then the whole suite against PostgreSQL when DATABASE_URL is set;
 * all passes share one Auth emulator, which takes seconds to start. Files named `*.postgres.test.ts` test
 * what only PostgreSQL has (a network connection to lose) and run in the PostgreSQL pass alone.
 * API_TEST_PASSES=pglite,object,postgres picks passes (e.g. `API_TEST_PASSES=object npm run test:api -- <file>`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, startAuthEmulator } from '@portal/dev-stack';
import { writePgliteTemplate } from './helpers/pglite-template.ts';

const projectId = 'demo-portal-test';
const emulator = await startAuthEmulator({
  port: await findFreePort(),
  projectId,
  workDir: await mkdtemp(path.join(os.tmpdir(), 'portal-emulator-')),
});

// Node 20's --test takes no glob patterns (21+ does), and finds only .js files on its own: list them here.
const files = process.argv.slice(2);
if (files.length === 0) {
  for (const dir of ['src', 'test']) {
    const found = await readdir(dir, { recursive: true });
    files.push(
      ...found
        .filter((file) => file.endsWith('.test.ts'))
        .map((file) => path.join(dir, file))
        .sort(),
    );
  }
}
const postgresOnly = (file: string) => file.endsWith('.postgres.test.ts');
/**
 * The tests of storing and serving invoice bytes, which run on both stores: the invoice, backup and restore
 * tests by their names, and any other file that asks for its pass's store (invoiceStoreKind()).
 */
const isInvoiceTest = async (file: string) =>
  /invoice|backup|restore/.test(file) || (await readFile(file, 'utf8')).includes('invoiceStoreKind()');
const invoiceTests: string[] = [];
for (const file of files) if (await isInvoiceTest(file)) invoiceTests.push(file);

type Pass = { name: string; label: string; databaseUrl?: string; store: 'folder' | 'object'; files: string[] };
const chosen = (process.env.API_TEST_PASSES ?? 'pglite,object,postgres').split(',');
const passes: Pass[] = [
  { name: 'pglite', label: 'PGlite', store: 'folder', files: files.filter((file) => !postgresOnly(file)) },
  {
    name: 'object',
    label: 'PGlite, invoices in the object store',
    store: 'object',
    files: invoiceTests.filter((file) => !postgresOnly(file)),
  },
];
if (process.env.DATABASE_URL) {
  passes.push({
    name: 'postgres',
    label: 'PostgreSQL',
    databaseUrl: process.env.DATABASE_URL,
    store: 'folder',
    files,
  });
}

// Every test file opens PGlite databases (both passes: some test the embedded database alone).
const templateDir = await mkdtemp(path.join(os.tmpdir(), 'portal-pglite-template-'));
const templateEnv = await writePgliteTemplate(path.join(templateDir, 'empty-database.tar'));

let failed = false;
for (const { name, label, databaseUrl, store, files: passFiles } of passes) {
  if (passFiles.length === 0 || !chosen.includes(name)) continue;
  process.stdout.write(`\n# API tests on ${label}\n`);
  // --no-memory-protection-keys: on CPUs with protection keys (PKU; this CI's AMD EPYC has them), V8 24's
  // tracking of its code pages loses count under the churn of dozens of PGlite (WebAssembly) databases
  // opened and closed in one process, and aborts it ("Check failed: jit_page.has_value()"). The test
  // runner hands these options on to every file's process. The server itself opens one database and keeps
  // it (decision 0015).
  const nodeOptions = ['--no-memory-protection-keys', '--import', 'tsx'];
  const result = spawnSync(process.execPath, [...nodeOptions, '--test', '--test-concurrency=1', ...passFiles], {
    stdio: 'inherit',
    env: {
      ...process.env,
      ...templateEnv,
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      FIREBASE_PROJECT_ID: projectId,
      DATABASE_URL: databaseUrl ?? '',
      TEST_INVOICE_STORE: store,
    },
  });
  failed ||= result.status !== 0;
}
await emulator.stop();
await rm(templateDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
