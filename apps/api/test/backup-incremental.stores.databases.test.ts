/**
 * Backups as a practice: many backups in one location (a folder, or in the object-store pass a bucket of the
 * local S3 server) share one pool of encrypted blobs, so a second backup copies only the invoice files the
 * first lacks; each backup restores and verifies on its own, its files copied by whichever run copied them;
 * a pool file changed behind the portal's back is refused for every backup that names it; prune keeps what
 * the keep-daily/keep-monthly policy keeps, never deletes a blob a kept backup needs, and under the invoice
 * retention keeps the last backup to hold an invoice's file.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { startObjectStore, type ObjectStore } from '@portal/dev-stack';
import { runBackup } from '../src/backup/backup.ts';
import { checkBackup } from '../src/backup/backup-check.ts';
import { listBackups, pruneBackups } from '../src/backup/catalogue.ts';
import { nonEmptyTables } from '../src/backup/database-copy.ts';
import { bucketLocation, folderLocation, type BackupLocation } from '../src/backup/location.ts';
import { BackupTamperedError, blobFile, keysetOf } from '../src/backup/manifest.ts';
import { runRestore } from '../src/backup/restore.ts';
import { runVerify } from '../src/backup/verify.ts';
import { runCommand } from '../src/cli/storage.ts';
import { testBackupKeys } from './helpers/backup-keys.ts';
import { fakePdf, sha256Of } from './helpers/fixtures.ts';
import { invoiceStoreKind } from './helpers/invoice-stores.ts';
import { openRestoreTarget } from './helpers/restore-target.ts';
import { useTestApp } from './helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';

async function readAll(stream: NodeJS.ReadableStream | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream ?? []) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe(`backups kept in one location (${invoiceStoreKind()} store)`, () => {
  const t = useTestApp({ env: { INGEST_TOKEN } });
  let work: string;
  let keys: Awaited<ReturnType<typeof testBackupKeys>>;
  let bucket: ObjectStore | undefined;
  /** The environment a command needs to reach the bucket. */
  let targetEnv: Record<string, string> = {};
  const cleanups: (() => Promise<void>)[] = [];
  /** How a command names the location of each test. */
  let target: string;

  /** A location of its own for each test: a folder, or a prefix of the bucket. */
  const newLocation = (name: string): BackupLocation => {
    if (!bucket) {
      target = path.join(work, name);
      return folderLocation(target);
    }
    target = `s3://${bucket.bucket}/${name}`;
    return bucketLocation({
      bucket: bucket.bucket,
      prefix: name,
      endpoint: bucket.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      spoolDir: path.join(work, 'spool'),
    });
  };

  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'portal-incremental-'));
    keys = await testBackupKeys();
    if (invoiceStoreKind() === 'object') {
      bucket = await startObjectStore({ dataDir: path.join(work, 'bucket'), bucket: 'backups' });
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_EC2_METADATA_DISABLED']) {
        process.env[name] = bucket.env[name];
      }
      targetEnv = {
        BACKUP_STORE_ENDPOINT: bucket.endpoint,
        BACKUP_STORE_PATH_STYLE: 'true',
        BACKUP_SPOOL_DIR: path.join(work, 'spool'),
      };
    }
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await bucket?.stop();
    await rm(work, { recursive: true, force: true });
  });

  const upload = async (code: string, label: string) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${code}`,
      payload: fakePdf(label),
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
    });
    assert.ok([200, 201].includes(response.statusCode), `${code}: ${response.statusCode}`);
  };
  const sources = () => ({ database: t.database, blobStore: t.blobStore });
  const restoreTarget = async (name: string) => {
    const opened = await openRestoreTarget(path.join(work, name));
    cleanups.push(() => opened.store.close());
    cleanups.push(() => opened.infrastructure.close());
    return opened;
  };

  it('copies only the files the last backup lacks, and restores either backup on its own', async () => {
    const location = newLocation('incremental');
    cleanups.push(async () => location.close());
    await upload('INC-A', 'incremental a');
    await upload('INC-B', 'incremental b');
    const first = await runBackup(sources(), location, keys.write, { now: new Date('2026-03-01T02:00:00Z') });
    assert.equal(first.manifest.blobs.count, 2);
    assert.equal(first.manifest.blobs.copied, 2);

    await upload('INC-C', 'incremental c');
    await upload('INC-A', 'incremental a, corrected');
    const second = await runBackup(sources(), location, keys.write, { now: new Date('2026-03-02T02:00:00Z') });
    assert.deepEqual(second.problems, []);
    assert.equal(second.manifest.blobs.count, 4, 'both versions of INC-A, INC-B and INC-C');
    assert.equal(second.manifest.blobs.copied, 2, 'only the two files that arrived since');
    const byHash = new Map(second.manifest.blobs.list.map((blob) => [blob.sha256, blob]));
    assert.equal(byHash.get(sha256Of(fakePdf('incremental b')))?.copiedBy, first.manifest.id);
    assert.equal(byHash.get(sha256Of(fakePdf('incremental c')))?.copiedBy, second.manifest.id);
    // The file the first run copied is named, not copied again: the same encrypted bytes.
    assert.deepEqual(
      byHash.get(sha256Of(fakePdf('incremental b')))?.sealed,
      first.manifest.blobs.list.find((blob) => blob.sha256 === sha256Of(fakePdf('incremental b')))?.sealed,
    );

    // A third run with nothing new copies nothing.
    const third = await runBackup(sources(), location, keys.write, { now: new Date('2026-03-02T03:00:00Z') });
    assert.equal(third.manifest.blobs.copied, 0);

    for (const backup of [first, second]) {
      const checked = await checkBackup(location, keys.read, { backup: backup.manifest.id });
      assert.deepEqual(checked.problems, [], backup.manifest.id);
    }
    // Without a name, the newest.
    assert.equal((await checkBackup(location, keys.read)).manifest.id, third.manifest.id);

    // The second backup, half of whose files the first run copied, into a new portal.
    const { infrastructure, store } = await restoreTarget('restored-second');
    const restored = await runRestore(infrastructure, location, keys.read, { backup: second.manifest.id });
    assert.equal(restored.report.rows.invoices, 3);
    assert.equal(restored.report.rows.invoice_versions, 4);
    const report = await runVerify(infrastructure);
    assert.deepEqual([report.named, report.missing, report.damaged, report.orphans], [4, [], [], []]);
    assert.equal((await store.contents()).filter((entry) => !entry.startsWith('spool/')).length, 4);

    // The first, from the same pool, as it was then.
    const older = await restoreTarget('restored-first');
    const restoredFirst = await runRestore(older.infrastructure, location, keys.read, { backup: first.manifest.id });
    assert.equal(restoredFirst.report.rows.invoices, 2);
    const answer = await older.infrastructure.database.db.execute(
      sql`select sha256 from invoices where parcel_code = 'INC-A'`,
    );
    assert.equal(
      (answer as unknown as { rows: { sha256: string }[] }).rows[0]?.sha256,
      sha256Of(fakePdf('incremental a')),
    );

    // Through the command: the list names every backup and what each copied.
    const lines: string[] = [];
    const output = { out: (line: string) => void lines.push(line), err: (line: string) => void lines.push(line) };
    assert.equal(await runCommand('backup', ['list', target], { env: { ...keys.env, ...targetEnv }, output }), 0);
    assert.match(lines.join('\n'), new RegExp(`${second.manifest.id}  4 invoice files \\(2 copied by it\\)`));
    assert.match(lines.join('\n'), /: 3 backups \(keeping 7 daily, 12 monthly\)/);
  });

  it('refuses every backup that names a pool file someone changed, before restoring anything', async () => {
    const location = newLocation('tampered');
    cleanups.push(async () => location.close());
    await upload('INC-T', 'tampered pool file');
    const first = await runBackup(sources(), location, keys.write, { now: new Date('2026-04-01T02:00:00Z') });
    await upload('INC-U', 'untouched');
    const second = await runBackup(sources(), location, keys.write, { now: new Date('2026-04-02T02:00:00Z') });
    const file = blobFile(keysetOf(keys.write.recipients), sha256Of(fakePdf('tampered pool file')));
    assert.equal(second.manifest.blobs.list.find((blob) => file.includes(blob.sha256))?.copiedBy, first.manifest.id);
    const original = await readAll(await location.openRead(file));
    const changed = Buffer.from(original);
    changed[changed.length - 1]! ^= 1;
    await location.writeSmall(file, changed);
    for (const backup of [first, second]) {
      const checked = await checkBackup(location, keys.read, { backup: backup.manifest.id });
      assert.deepEqual(checked.problems, [`changed: ${file} is not the file signed`]);
    }
    const { infrastructure, store } = await restoreTarget('restored-tampered');
    await assert.rejects(
      runRestore(infrastructure, location, keys.read, { backup: second.manifest.id }),
      (error: Error) => error instanceof BackupTamperedError && error.message.includes(`${file} is not the file`),
    );
    assert.deepEqual(await nonEmptyTables(infrastructure.database.db), []);
    assert.deepEqual(await store.contents(), []);
    await location.writeSmall(file, original);
    assert.deepEqual((await checkBackup(location, keys.read, { backup: second.manifest.id })).problems, []);
  });

  it('prunes to keep-daily and keep-monthly, never a blob a kept backup needs, and keeps what the invoice retention needs', async () => {
    const location = newLocation('pruned');
    cleanups.push(async () => location.close());
    const at = (iso: string) => ({ now: new Date(iso) });
    // A file only the oldest backup holds: its invoice was removed (by hand: the portal itself never deletes one).
    await upload('INC-GONE', 'removed since');
    await upload('INC-KEPT', 'kept throughout');
    const january = await runBackup(sources(), location, keys.write, at('2025-01-05T02:00:00Z'));
    await t.database.db.execute(sql`delete from invoice_versions where parcel_code = 'INC-GONE'`);
    await t.database.db.execute(sql`delete from invoices where parcel_code = 'INC-GONE'`);
    const february = await runBackup(sources(), location, keys.write, at('2025-02-10T02:00:00Z'));
    assert.equal(february.manifest.blobs.copied, 0, 'INC-KEPT was copied by the January run');
    const marchFirst = await runBackup(sources(), location, keys.write, at('2025-03-01T02:00:00Z'));
    const marchSecond = await runBackup(sources(), location, keys.write, at('2025-03-02T02:00:00Z'));
    const marchThirdEarly = await runBackup(sources(), location, keys.write, at('2025-03-03T01:00:00Z'));
    const marchThirdLate = await runBackup(sources(), location, keys.write, at('2025-03-03T23:00:00Z'));
    const policy = { keepDaily: 2, keepMonthly: 2 };
    const keyset = keysetOf(keys.write.recipients);
    const goneFile = blobFile(keyset, sha256Of(fakePdf('removed since')));
    const keptFile = blobFile(keyset, sha256Of(fakePdf('kept throughout')));

    // With the invoice retention, January is the last backup holding INC-GONE's file: it stays.
    const now = new Date('2026-01-01T00:00:00Z');
    const dry = await pruneBackups(location, keys.read.verifyKey, {
      policy,
      retentionYears: 10,
      dryRun: true,
      now,
      graceMs: 0,
    });
    assert.deepEqual(
      dry.kept.map((kept) => [kept.id, kept.reasons]),
      [
        [january.manifest.id, ['last to hold invoice files kept 10 years']],
        [february.manifest.id, ['monthly 2025-02']],
        [marchSecond.manifest.id, ['daily 2025-03-02']],
        [marchThirdLate.manifest.id, ['newest', 'daily 2025-03-03', 'monthly 2025-03']],
      ],
    );
    assert.deepEqual(dry.deleted, [marchFirst.manifest.id, marchThirdEarly.manifest.id]);
    assert.equal((await listBackups(location, keys.read.verifyKey)).length, 6, 'a dry run deletes nothing');

    // Without it, the policy alone: January goes, and with it the file only it held; not the file it copied
    // that later backups name.
    const pruned = await pruneBackups(location, keys.read.verifyKey, { policy, now, graceMs: 0 });
    assert.deepEqual(pruned.deleted, [january.manifest.id, marchFirst.manifest.id, marchThirdEarly.manifest.id]);
    assert.deepEqual(pruned.failures, []);
    assert.equal(pruned.blobsDeleted, 1);
    assert.equal(await location.openRead(goneFile), undefined, 'the file no kept backup names is gone');
    const kept = await location.openRead(keptFile);
    assert.ok(kept, 'the file the January run copied stays: February names it');
    kept.destroy();
    assert.deepEqual(
      (await listBackups(location, keys.read.verifyKey)).map((backup) => backup.id),
      [february.manifest.id, marchSecond.manifest.id, marchThirdLate.manifest.id],
    );
    // February restores although the run that copied its file is gone.
    assert.deepEqual((await checkBackup(location, keys.read, { backup: february.manifest.id })).problems, []);
    const { infrastructure } = await restoreTarget('restored-february');
    const restored = await runRestore(infrastructure, location, keys.read, { backup: february.manifest.id });
    assert.equal(restored.report.rows.invoices, 1);
    assert.deepEqual((await runVerify(infrastructure)).missing, []);

    // The command: a dry run says what it would delete, and deletes nothing.
    const lines: string[] = [];
    const output = { out: (line: string) => void lines.push(line), err: (line: string) => void lines.push(line) };
    const env = { ...keys.env, ...targetEnv };
    assert.equal(
      await runCommand('backup', ['prune', target, '--keep-daily', '1', '--keep-monthly', '1', '--dry-run'], {
        env,
        output,
      }),
      0,
    );
    assert.match(lines.join('\n'), new RegExp(`would delete backup ${february.manifest.id}`));
    assert.equal((await listBackups(location, keys.read.verifyKey)).length, 3);
    await assert.rejects(
      runCommand('backup', ['prune', target, '--keep-daily', 'many'], { env, output }),
      /--keep-daily must be a whole number of backups/,
    );
  });
});
