import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../src/config.ts';
import { invoices, invoiceVersions } from '../../src/db/schema.ts';
import { openInfrastructure } from '../../src/infrastructure.ts';
import { runVerify } from '../../src/backup/verify.ts';
import { fakePdf, sha256Of } from '../helpers/fixtures.ts';
import { invoiceStoreKind, openTestInvoiceStore, type TestInvoiceStore } from '../helpers/invoice-stores.ts';
import { TEST_PROJECT_ID } from '../helpers/test-app.ts';

// Why a process of its own (.own-process): it kills server processes in the middle of writing and checks what is left.

// Enough that the kill lands early in the run (after 5) and the re-run has most of them left to do.
const FILES = 24;
const cli = path.resolve('src/cli/index.ts');

/**
 * `kill -9` of `npm run portal -- invoices import-dir` halfway, then a re-run: nothing lost, nothing twice; on
 * the folder and on the object store (invoiceStoreKind()).
 */
describe(`a crash in the middle of a folder import (${invoiceStoreKind()} store)`, () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let store: TestInvoiceStore;
  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-crash-'));
    store = await openTestInvoiceStore(invoiceStoreKind(), dataDir);
    env = {
      ...process.env,
      ...store.env,
      DATA_DIR: dataDir,
      FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      LOG_LEVEL: 'silent',
    };
    if (env.DATABASE_URL) {
      const infrastructure = await openInfrastructure(loadConfig(env));
      await infrastructure.database.db.execute(
        sql`truncate table invoices, invoice_versions, invoice_warnings, audit_log restart identity`,
      );
      await infrastructure.close();
    }
  });
  after(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  /** Where a temporary entry of contents() is on disk: the folder store's tmp/, or the upload spool. */
  const isTemporary = (entry: string) => entry.startsWith('tmp') || entry.startsWith('spool/');
  const onDisk = (entry: string) =>
    store.kind === 'folder' ? path.join(dataDir, 'invoices', entry) : path.join(dataDir, entry);

  // On Node's own type stripping, as `npm run portal` runs the CLI.
  const importDir = (dir: string) =>
    spawn(process.execPath, [cli, 'invoices', 'import-dir', dir], { env, stdio: 'pipe' });

  it('leaves only whole files and rows naming them, and a re-run completes the rest once', async (test) => {
    const source = path.join(dataDir, 'incoming');
    await mkdir(source);
    const pdfs = new Map<string, Buffer>();
    for (let index = 0; index < FILES; index += 1) {
      const code = `CRASH${String(index).padStart(3, '0')}`;
      pdfs.set(code, fakePdf(code, 256 * 1024));
      await writeFile(path.join(source, `${code}.pdf`), pdfs.get(code)!);
    }

    const first = importDir(source);
    let imported = 0;
    first.stdout.on('data', (chunk: Buffer) => {
      imported += (chunk.toString().match(/: created/g) ?? []).length;
      if (imported >= 5) first.kill('SIGKILL');
    });
    const exit = await new Promise<NodeJS.Signals | null>((resolve) =>
      first.on('exit', (_code, signal) => resolve(signal)),
    );
    assert.equal(exit, 'SIGKILL', 'the import was killed before it finished');

    // What a crash left: a temporary file at most, never a partial invoice, and old enough to be swept.
    const leftovers = (await store.contents()).filter(isTemporary);
    const longAgo = new Date(Date.now() - 24 * 3600 * 1000);
    for (const entry of leftovers) await utimes(onDisk(entry), longAgo, longAgo);
    // Every row written before the kill names whole bytes with the right hash.
    const crashed = await openInfrastructure(loadConfig(env));
    try {
      const report = await runVerify(crashed);
      assert.deepEqual([report.missing, report.damaged], [[], []]);
      assert.ok(report.named >= 5, `${report.named} invoices were in before the kill`);
    } finally {
      await crashed.close();
    }

    const rerunStarted = performance.now();
    const second = importDir(source);
    let output = '';
    second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    const rerunSeconds = (performance.now() - rerunStarted) / 1000;
    assert.equal(code, 0, output);
    assert.match(output, /failed 0/);

    const infrastructure = await openInfrastructure(loadConfig(env));
    try {
      const rows = await infrastructure.database.db.select().from(invoices);
      const versions = await infrastructure.database.db.select().from(invoiceVersions);
      assert.equal(rows.length, FILES);
      assert.equal(versions.length, FILES, 'one version per invoice: nothing recorded twice');
      for (const row of rows) {
        assert.equal(row.sha256, sha256Of(pdfs.get(row.parcelCode)!));
        const opened = await infrastructure.blobStore.open(row.sha256);
        assert.equal(opened?.size, row.size, `${row.parcelCode} names bytes that exist`);
        opened?.stream.destroy();
      }
    } finally {
      await infrastructure.close();
    }
    const files = await store.contents();
    assert.deepEqual(files.filter(isTemporary), [], 'the crash left no temporary file behind');
    assert.equal(files.length, FILES, 'one stored file per invoice');
    test.diagnostic(
      `import killed after ${imported} of ${FILES} files (${leftovers.length} temporary file left): re-run imported the rest in ${rerunSeconds.toFixed(1)} s, ${FILES} rows, ${FILES} versions, no duplicate`,
    );
  });
});
