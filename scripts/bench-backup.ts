// `npm run bench:backup [-- --invoices 10000] [--store folder|object] [--age-key pq|x25519] [--new 1]`: the
// restore drill at size. Fills a fresh database (PostgreSQL in DATABASE_URL, else PGlite) and store with N
// invoices (each a distinct small PDF, one version row each, one audit entry each), then times a first
// `portal backup` (encrypted and signed, with keys made for the run: the post-quantum hybrid age key
// `portal backup-keys` makes, or an X25519 one as `age-keygen` makes), adds --new per cent more invoices
// (a day's worth), times the second, incremental backup into the same location, `portal verify <location>` on
// it, a restore of it (its blobs mostly copied by the first run) into another fresh database and an empty
// store, and `portal verify`. With --store folder the backups go to a folder; with --store object the invoices
// are in a local S3-compatible server's bucket and the backups in another bucket of it. A tool for people,
// not a timed test.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { sql } from 'drizzle-orm';
import { freshDatabaseBeside, startObjectStore, type ObjectStore } from '@portal/dev-stack';
import { runBackup } from '@portal/api/backup/backup.ts';
import { openBackupLocation } from '@portal/api/backup/location.ts';
import { checkBackup } from '@portal/api/backup/backup-check.ts';
import { backupReadKeys, backupWriteKeys, generateBackupKeys } from '@portal/api/backup/keys.ts';
import { runRestore } from '@portal/api/backup/restore.ts';
import { runVerify } from '@portal/api/backup/verify.ts';
import { loadConfig } from '@portal/api/config.ts';
import { forMaintenance } from '@portal/api/db/client.ts';
import { openInfrastructure } from '@portal/api/infrastructure.ts';
import { forEachConcurrently } from '@portal/api/lib/concurrently.ts';

const { values } = parseArgs({
  options: {
    invoices: { type: 'string', default: '10000' },
    store: { type: 'string', default: 'folder' },
    'age-key': { type: 'string', default: 'pq' },
    new: { type: 'string', default: '1' },
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
  const source = await openInfrastructure(forMaintenance(loadConfig(await portalEnv('source'))));
  const engine = source.database.kind;
  let started = performance.now();
  const fill = async (from: number, to: number) => {
    const rows: { code: string; sha256: string; size: number }[] = [];
    await forEachConcurrently(
      Array.from({ length: to - from }, (_, index) => from + index),
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
  };
  log(`filling ${engine} and the ${storeKind} store with ${count} invoices...`);
  await fill(0, count);
  log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The backups' own place: a folder, or a bucket of its own on the local S3 server.
  let backupTarget = path.join(work, 'backups');
  const backupEnv: Record<string, string> = {};
  if (storeKind === 'object') {
    const bucketStore = await startObjectStore({
      dataDir: path.join(work, 'backup-bucket'),
      bucket: 'backups',
      prefix: 'portal',
    });
    objectStores.push(bucketStore);
    backupTarget = 's3://backups/portal';
    Object.assign(backupEnv, {
      BACKUP_STORE_ENDPOINT: bucketStore.endpoint,
      BACKUP_STORE_PATH_STYLE: 'true',
      BACKUP_SPOOL_DIR: path.join(work, 'backup-spool'),
    });
  }
  const location = openBackupLocation(backupTarget, backupEnv);
  const writeKeys = backupWriteKeys(keyEnv);
  const timed = async (label: string, now: Date) => {
    const backup = await runBackup(source, location, writeKeys, { now });
    const timings = backup.manifest.timings ?? {};
    log(
      `${label}: ${timings.totalSeconds?.toFixed(1)} s (database snapshot ${timings.databaseSeconds?.toFixed(1)} s), ${backup.manifest.blobs.count} invoice files named, ${backup.manifest.blobs.copied} copied, ${backup.manifest.blobs.bytes} bytes`,
    );
    return backup;
  };
  const firstDay = new Date(Date.now() - 24 * 60 * 60 * 1000);
  await timed(`first backup into ${location.description}`, firstDay);
  const added = Math.max(1, Math.round((count * Number(values.new)) / 100));
  await fill(count, count + added);
  log(`added ${added} invoices (${values.new} %)`);
  const second = await timed('second backup (incremental)', new Date());
  await source.close();
  const keys = backupReadKeys(keyEnv);
  const checked = await checkBackup(location, keys, { backup: second.manifest.id });
  log(
    `verify <location>: ${checked.seconds.toFixed(1)} s, ${checked.files} files, ${checked.problems.length} problems`,
  );

  const target = await openInfrastructure(forMaintenance(loadConfig(await portalEnv('restored'))), { migrate: true });
  started = performance.now();
  const restored = await runRestore(target, location, keys, { backup: second.manifest.id });
  log(`restore of the second backup: ${restored.seconds.toFixed(1)} s`);
  const report = await runVerify(target);
  log(
    `verify: ${report.seconds.toFixed(1)} s; ${report.named} named, ${report.missing.length} missing, ${report.damaged.length} damaged, ${report.orphans.length} orphans`,
  );
  log(`restore + verify: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await target.close();
  location.close();
  process.exitCode = report.missing.length || report.damaged.length ? 1 : 0;
} finally {
  for (const store of objectStores) await store.stop();
  await rm(work, { recursive: true, force: true });
}
