import { schemaLevel, type DatabaseHandle } from '../db/client.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { forEachConcurrently } from '../lib/concurrently.ts';
import { backupIdentities } from './blob-keys.ts';
import { checkIdentityOpens, checkSealedFiles, openBackupFile } from './backup-check.ts';
import { chooseBackup } from './catalogue.ts';
import { importDatabase, nonEmptyTables, type ImportReport } from './database-copy.ts';
import type { BackupReadKeys } from './keys.ts';
import { locationOf, type BackupLocation } from './location.ts';
import { BackupTamperedError, blobFile, keysetOf, readSignedManifest, type BackupManifest } from './manifest.ts';

export interface RestoreTargets {
  database: DatabaseHandle;
  blobStore: BlobStore;
}

export class RestoreRefusedError extends Error {}

const BLOB_COPIES_AT_ONCE = 8;

export interface RestoreResult {
  manifest: BackupManifest;
  report: ImportReport;
  seconds: number;
}

export interface RestoreOptions {
  /** Which backup of the location (default: the newest finished). */
  backup?: string | undefined;
  log?: (line: string) => void;
}

/**
 * `portal restore <location> [<backup>]`: any backup the location still holds, its blobs wherever in the
 * shared pool an earlier run copied them. First the manifest's signature (nothing of a backup is believed before it), then
 * into an empty database (migrated by this release) and an empty store only, so it never mixes two
 * histories. Every file is checked against the signed manifest before anything is written; then every blob
 * goes into the store (decrypted, and hashed by the store on the way), then the rows in one transaction:
 * should it stop halfway, the database is still empty and the restore can simply be run again.
 */
export async function runRestore(
  targets: RestoreTargets,
  target: BackupLocation | string,
  keys: BackupReadKeys,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const log = options.log ?? (() => {});
  const location = locationOf(target);
  const started = performance.now();
  const id = await chooseBackup(location, options.backup);
  const manifest = await readSignedManifest(location, id, keys.verifyKey);
  const level = await schemaLevel(targets.database.db);
  if (manifest.migrations.lastWhen > level.lastWhen) {
    throw new RestoreRefusedError(
      `This backup was made by a newer release (its schema has ${manifest.migrations.applied} migrations, this one ${level.applied}): restore it with that release or a later one.`,
    );
  }
  const busy = await nonEmptyTables(targets.database.db);
  if (busy.length) {
    throw new RestoreRefusedError(
      `The database is not empty (rows in ${busy.join(', ')}): a restore goes into a new, empty database only.`,
    );
  }
  for await (const blob of targets.blobStore.list()) {
    throw new RestoreRefusedError(
      `The invoice store ${targets.blobStore.description} is not empty (it holds ${blob.sha256} at least): a restore goes into an empty store only.`,
    );
  }
  await checkSealedFiles(location, manifest);
  await checkIdentityOpens(location, manifest, keys.identities);
  log(
    `${location.description} backup ${id}: signature and all ${manifest.tables.length + manifest.blobs.count} files good (made ${manifest.createdAt})`,
  );

  let restored = 0;
  const keyset = keysetOf(manifest.encryption.recipients);
  const identities = backupIdentities(location, keyset, keys.identities);
  await forEachConcurrently(manifest.blobs.list, BLOB_COPIES_AT_ONCE, async ({ sha256, size }) => {
    const file = blobFile(keyset, sha256);
    const stored = await targets.blobStore.put(await openBackupFile(location, file, identities), {
      maxBytes: Number.MAX_SAFE_INTEGER,
    });
    if (stored.sha256 !== sha256 || stored.size !== size) {
      // The store keeps bytes under their own hash, so a damaged copy never takes the name of the real one.
      throw new BackupTamperedError(`${file} does not decrypt to the bytes its name says.`);
    }
    restored += 1;
  });
  log(`blobs: ${restored} put into ${targets.blobStore.description}`);
  const report = await importDatabase(targets.database.db, location, manifest, keys.identities);
  const rows = Object.values(report.rows).reduce((sum, count) => sum + count, 0);
  log(`database: ${rows} rows in ${Object.keys(report.rows).length} tables`);
  if (report.dropped.length) log(`not restored (no longer in this release's schema): ${report.dropped.join(', ')}`);
  return { manifest, report, seconds: (performance.now() - started) / 1000 };
}
