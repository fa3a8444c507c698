// `npm run bench:backup [-- --invoices 10000] [--store folder|object] [--age-key pq|x25519]`: the restore
// drill at size. Fills a fresh database (PostgreSQL in DATABASE_URL, else PGlite) and store with N invoices
// (each a distinct small PDF, one version row each, one audit entry each), then times `portal backup`
// (encrypted and signed, with keys made for the run: the post-quantum hybrid age key `portal backup-keys`
// makes, or an X25519 one as `age-keygen` makes), `portal verify <dir>` on the backup, a restore into another
// fresh database and an empty store, and `portal verify`. A tool for people, not a timed test.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { sql } from 'drizzle-orm';
import { freshDatabaseBeside, startObjectStore, type ObjectStore } from '@portal/dev-stack';
import { runBackup } from '@portal/api/backup/backup.ts';
import { checkBackup } from '@portal/api/backup/backup-check.ts';
import { backupReadKeys, backupWriteKeys, generateBackupKeys } from '@portal/api/backup/keys.ts';
import { runRestore } from '@portal/api/backup/restore.ts';
import { runVerify } from '@portal/api/backup/verify.ts';
import { loadConfig } from '@portal/api/config.ts';
import { openInfrastructure } from '@portal/api/infrastructure.ts';
import { forEachConcurrently } from '@portal/api/lib/concurrently.ts';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '10000' },
    store: { type: 'string', default: 'folder' },
    'age-key': { type: 'string', default: 'pq' },
  },
});
const count = Number(values.invoices);
const storeKind = values.store === 'object' ? 'object' : 'folder';
const log = (line: string) => process.stdout.write(`${line}\n`);
const work = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-backup-'));
const objectStores: ObjectStore[] = [];

async function portalEnv(name: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    FIREBASE_PROJECT_ID: 'demo-bench-backup',
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9',
    DATA_DIR: path.join(work, name),
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.DATABASE_URL ? await freshDatabaseBeside(process.env.DATABASE_URL, `bench_${name}`) : '',
  };
  if (storeKind === 'folder') return env;
  const store = await startObjectStore({ dataDir: path.join(work, `${name}-bucket`) });
  objectStores.push(store);
  for (const key of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_EC2_METADATA_DISABLED']) {
    process.env[key] = store.env[key];
  }
  return { ...env, ...store.env, INVOICE_SPOOL_DIR: path.join(work, `${name}-spool`) };
}

const pdf = (index: number) => Buffer.from(`%PDF-1.7\n% bench invoice ${index}\n${' '.repeat(2000)}\n%%EOF`, 'latin1');

try {
  const generated = await generateBackupKeys();
  if (values['age-key'] === 'x25519') {
    generated.identity = await generateX25519Identity();
    generated.recipient = await identityToRecipient(generated.identity);
  }
  const keyEnv = {
    BACKUP_RECIPIENT: generated.recipient,
    BACKUP_SIGNING_KEY: generated.signingKeyPem,
    BACKUP_IDENTITY: generated.identity,
    BACKUP_VERIFY_KEY: generated.verifyKeyPem,
  };
  const source = await openInfrastructure(loadConfig(await portalEnv('source')));
  const engine = source.database.kind;
  log(`filling ${engine} and the ${storeKind} store with ${count} invoices...`);
  let started = performance.now();
  const rows: { code: string; sha256: string; size: number }[] = [];
  await forEachConcurrently(
    Array.from({ length: count }, (_, index) => index),
    8,
    async (index) => {
      const blob = await source.blobStore.put(pdf(index), { maxBytes: 1_000_000 });
      rows.push({ code: `BENCH${String(index).padStart(7, '0')}`, ...blob });
    },
  );
  for (let offset = 0; offset < rows.length; offset += 1000) {
    const batch = rows.slice(offset, offset + 1000);
    const json = JSON.stringify(batch);
    await source.database.db.execute(sql`insert into invoices (parcel_code, sha256, size, uploaded_by)
      select code, sha256, size, 'bench' from json_to_recordset(${json}::json) as r(code text, sha256 text, size int)`);
    await source.database.db.execute(sql`insert into invoice_versions (parcel_code, sha256, size, uploaded_by)
      select code, sha256, size, 'bench' from json_to_recordset(${json}::json) as r(code text, sha256 text, size int)`);
    await source.database.db.execute(sql`insert into audit_log (actor, action, target, outcome, detail)
      select 'bench', 'invoice.ingest', code, 'ok', 'created' from json_to_recordset(${json}::json) as r(code text)`);
  }
  log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const backupDir = path.join(work, 'backup');
  const backup = await runBackup(source, backupDir, backupWriteKeys(keyEnv));
  const timings = backup.manifest.timings ?? {};
  log(
    `backup: ${timings.totalSeconds?.toFixed(1)} s (database snapshot ${timings.databaseSeconds?.toFixed(1)} s), ${backup.manifest.blobs.count} files, ${backup.manifest.blobs.bytes} bytes`,
  );
  await source.close();
  const keys = backupReadKeys(keyEnv);
  const checked = await checkBackup(backupDir, keys);
  log(`verify <dir>: ${checked.seconds.toFixed(1)} s, ${checked.files} files, ${checked.problems.length} problems`);

  const target = await openInfrastructure(loadConfig(await portalEnv('restored')), { migrate: true });
  started = performance.now();
  const restored = await runRestore(target, backupDir, keys);
  log(`restore: ${restored.seconds.toFixed(1)} s`);
  const report = await runVerify(target);
  log(
    `verify: ${report.seconds.toFixed(1)} s; ${report.named} named, ${report.missing.length} missing, ${report.damaged.length} damaged, ${report.orphans.length} orphans`,
  );
  log(`restore + verify: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await target.close();
  process.exitCode = report.missing.length || report.damaged.length ? 1 : 0;
} finally {
  for (const store of objectStores) await store.stop();
  await rm(work, { recursive: true, force: true });
}
