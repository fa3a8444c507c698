import { chmod, mkdir, readdir } from 'node:fs/promises';
import type { DatabaseHandle } from '../db/client.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { forEachConcurrently } from '../lib/concurrently.ts';
import { copyBlobInto } from './blob-copy.ts';
import { exportDatabase } from './database-copy.ts';
import type { BackupWriteKeys } from './keys.ts';
import { newManifest, writeSignedManifest, type BackupManifest } from './manifest.ts';
import { PRIVATE_DIR_MODE } from './sealed-file.ts';

export interface BackupSources {
  database: DatabaseHandle;
  blobStore: BlobStore;
}

export interface BackupResult {
  manifest: BackupManifest;
  /** Blobs a row names that the store does not have, or whose bytes are not what their name says. */
  problems: string[];
}

export class BackupRefusedError extends Error {}

const BLOB_COPIES_AT_ONCE = 8;

async function isEmptyOrAbsent(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/**
 * `portal backup <dir>`: the database in one snapshot (every table but the short-lived ones, its sequences,
 * the blob names), then every blob a row of that snapshot names, then the signed manifest. Every file is
 * encrypted to the recipients and readable by the owner only. The blobs are read after the snapshot, which
 * is safe because a blob a row names is never deleted; the portal keeps serving and accepting uploads
 * meanwhile (what arrives after the snapshot is in the next backup).
 */
export async function runBackup(
  sources: BackupSources,
  dir: string,
  keys: BackupWriteKeys,
  log: (line: string) => void = () => {},
): Promise<BackupResult> {
  if (!(await isEmptyOrAbsent(dir))) {
    throw new BackupRefusedError(`${dir} is not empty: a backup goes into a new or empty folder.`);
  }
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // An empty folder made beforehand keeps its own mode unless told.
  await chmod(dir, PRIVATE_DIR_MODE);
  const started = performance.now();
  const exported = await exportDatabase(sources.database.db, dir, keys.recipients);
  const databaseSeconds = (performance.now() - started) / 1000;
  const rowCount = exported.tables.reduce((sum, table) => sum + table.rows, 0);
  log(`database: ${exported.tables.length} tables, ${rowCount} rows in one snapshot (${databaseSeconds.toFixed(1)} s)`);

  const copied: BackupManifest['blobs']['list'] = [];
  const problems: string[] = [];
  await forEachConcurrently(exported.blobNames, BLOB_COPIES_AT_ONCE, async (sha256) => {
    const blob = await sources.blobStore.open(sha256);
    if (!blob) {
      problems.push(`missing: blob ${sha256} is named by a row but not in ${sources.blobStore.description}`);
      return;
    }
    try {
      copied.push({ sha256, ...(await copyBlobInto(dir, sha256, blob.stream, keys.recipients)) });
    } catch (error) {
      problems.push(`damaged: ${(error as Error).message}`);
    }
  });
  copied.sort((a, b) => a.sha256.localeCompare(b.sha256));
  const bytes = copied.reduce((sum, blob) => sum + blob.size, 0);
  const seconds = (performance.now() - started) / 1000;
  log(`blobs: ${copied.length} copied, ${bytes} bytes (${(seconds - databaseSeconds).toFixed(1)} s)`);

  const manifest = newManifest({
    createdAt: new Date().toISOString(),
    source: { database: sources.database.kind, store: sources.blobStore.description },
    encryption: { format: 'age', recipients: keys.recipients },
    migrations: exported.migrations,
    tables: exported.tables,
    sequences: exported.sequences,
    blobs: { count: copied.length, bytes, list: copied },
    timings: { databaseSeconds, totalSeconds: seconds },
  });
  await writeSignedManifest(dir, manifest, keys.signingKey);
  for (const problem of problems) log(problem);
  return { manifest, problems };
}
