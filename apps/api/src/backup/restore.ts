import { createReadStream } from 'node:fs';
import path from 'node:path';
import { schemaLevel, type DatabaseHandle } from '../db/client.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { forEachConcurrently } from '../lib/concurrently.ts';
import { backupBlobPath, hashStream } from './blob-copy.ts';
import { importDatabase, nonEmptyTables, type ImportReport } from './database-copy.ts';
import { BLOBS_DIR, readManifest, type BackupManifest } from './manifest.ts';

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

/**
 * `portal restore <dir>`: into an empty database (migrated by this release) and an empty store only, so it
 * never mixes two histories. Checks the backup's files against the manifest first, puts every blob into the
 * store (each is hashed on the way), then loads the rows in one transaction: should it stop halfway, the
 * database is still empty and the restore can simply be run again.
 */
export async function runRestore(
  targets: RestoreTargets,
  dir: string,
  log: (line: string) => void = () => {},
): Promise<RestoreResult> {
  const started = performance.now();
  const manifest = await readManifest(dir);
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
  for (const table of manifest.tables) {
    const { sha256 } = await hashStream(createReadStream(path.join(dir, table.file)));
    if (sha256 !== table.sha256) {
      throw new RestoreRefusedError(`The backup is damaged: ${table.file} is not the file its manifest describes.`);
    }
  }

  const blobsDir = path.join(dir, BLOBS_DIR);
  let restored = 0;
  await forEachConcurrently(manifest.blobs.list, BLOB_COPIES_AT_ONCE, async ({ sha256, size }) => {
    const stored = await targets.blobStore.put(createReadStream(backupBlobPath(blobsDir, sha256)), {
      maxBytes: Number.MAX_SAFE_INTEGER,
    });
    if (stored.sha256 !== sha256 || stored.size !== size) {
      // The store keeps bytes under their own hash, so a damaged copy never takes the name of the real one.
      throw new RestoreRefusedError(
        `The backup is damaged: blobs/${sha256.slice(0, 2)}/${sha256} does not hash to its name.`,
      );
    }
    restored += 1;
  });
  log(`blobs: ${restored} put into ${targets.blobStore.description}`);
  const report = await importDatabase(targets.database.db, dir, manifest);
  const rows = Object.values(report.rows).reduce((sum, count) => sum + count, 0);
  log(`database: ${rows} rows in ${Object.keys(report.rows).length} tables`);
  if (report.dropped.length) log(`not restored (no longer in this release's schema): ${report.dropped.join(', ')}`);
  return { manifest, report, seconds: (performance.now() - started) / 1000 };
}
