import { createPublicKey } from 'node:crypto';
import type { DatabaseHandle } from '../db/client.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { forEachConcurrently } from '../lib/concurrently.ts';
import type { Recipient } from 'age-encryption';
import { copyBlobInto } from './blob-copy.ts';
import { createBlobKey } from './blob-keys.ts';
import { backupsIn } from './catalogue.ts';
import { exportDatabase } from './database-copy.ts';
import type { BackupWriteKeys } from './keys.ts';
import { locationOf, type BackupLocation } from './location.ts';
import {
  BACKUPS_DIR,
  BLOBS_DIR,
  backupDir,
  backupIdAt,
  blobFile,
  keysetOf,
  newManifest,
  readSignedManifest,
  writeSignedManifest,
  type BackupManifest,
} from './manifest.ts';

export interface BackupSources {
  database: DatabaseHandle;
  blobStore: BlobStore;
}

export interface BackupResult {
  manifest: BackupManifest;
  /** Blobs a row names that the store does not have, or whose bytes are not what their name says. */
  problems: string[];
}

export interface BackupOptions {
  log?: (line: string) => void;
  /** When the backup is made (its id); tests of retention make backups on other days. */
  now?: Date;
}

export class BackupRefusedError extends Error {}

const BLOB_COPIES_AT_ONCE = 8;

type BlobEntry = BackupManifest['blobs']['list'][number];

/** A folder holding anything but backups is not one to write backups into (an older release's backup, a home folder). */
async function refuseForeignFolder(location: BackupLocation, target: BackupLocation | string) {
  if (typeof target !== 'string') return;
  const { readdir } = await import('node:fs/promises');
  const entries = await readdir(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const foreign = entries.filter((entry) => entry !== BACKUPS_DIR && entry !== BLOBS_DIR);
  if (foreign.length) {
    throw new BackupRefusedError(
      `${location.description} holds ${foreign.slice(0, 3).join(', ')}: backups go into a new or empty folder, or one that holds only backups.`,
    );
  }
}

/**
 * `portal backup <folder|s3://bucket/prefix>`: the database in one snapshot (every table but the short-lived
 * ones, its sequences, the blob names) into backups/<id>/, then every blob a row of that snapshot names, then
 * the signed manifest. Blobs live in one pool shared by every backup of the location, content-addressed: a
 * blob that an earlier backup (still there, its manifest signed by this signing key) already holds is named,
 * not copied again, so a daily run copies only what arrived since. Every file is encrypted to the recipients.
 * The blobs are read after the snapshot, which is safe because a blob a row names is never deleted; the
 * portal keeps serving and accepting uploads meanwhile (what arrives after the snapshot is in the next backup).
 */
export async function runBackup(
  sources: BackupSources,
  target: BackupLocation | string,
  keys: BackupWriteKeys,
  options: BackupOptions = {},
): Promise<BackupResult> {
  const log = options.log ?? (() => {});
  const location = locationOf(target);
  await refuseForeignFolder(location, target);
  await location.prepare();
  const now = options.now ?? new Date();
  const id = backupIdAt(now);
  for await (const file of location.list(`${backupDir(id)}/`)) {
    throw new BackupRefusedError(`${location.description} already has a backup ${id} (${file.name}).`);
  }
  const keyset = keysetOf(keys.recipients);
  const known = await knownBlobs(location, keys, keyset, log);

  const started = performance.now();
  const exported = await exportDatabase(sources.database.db, location, id, keys.recipients);
  const databaseSeconds = (performance.now() - started) / 1000;
  const rowCount = exported.tables.reduce((sum, table) => sum + table.rows, 0);
  log(`database: ${exported.tables.length} tables, ${rowCount} rows in one snapshot (${databaseSeconds.toFixed(1)} s)`);

  const list: BlobEntry[] = [];
  // Made when the first blob is copied: a run that copies none leaves no key behind.
  let runKey: Promise<Recipient> | undefined;
  const blobKey = () => (runKey ??= createBlobKey(location, keyset, id, keys.recipients));
  const problems: string[] = [];
  let copied = 0;
  let copiedBytes = 0;
  await forEachConcurrently(exported.blobNames, BLOB_COPIES_AT_ONCE, async (sha256) => {
    const earlier = await known.find(sha256);
    if (earlier) return void list.push(earlier);
    const blob = await sources.blobStore.open(sha256);
    if (!blob) {
      problems.push(`missing: blob ${sha256} is named by a row but not in ${sources.blobStore.description}`);
      return;
    }
    try {
      const written = await copyBlobInto(location, blobFile(keyset, sha256), sha256, blob.stream, [await blobKey()]);
      list.push({ sha256, ...written, copiedBy: id });
      copied += 1;
      copiedBytes += written.size;
    } catch (error) {
      problems.push(`damaged: ${(error as Error).message}`);
    }
  });
  list.sort((a, b) => a.sha256.localeCompare(b.sha256));
  const bytes = list.reduce((sum, blob) => sum + blob.size, 0);
  const seconds = (performance.now() - started) / 1000;
  log(
    `blobs: ${copied} copied (${copiedBytes} bytes), ${list.length - copied} already held by earlier backups (${(seconds - databaseSeconds).toFixed(1)} s)`,
  );
  const manifest = newManifest({
    id,
    createdAt: now.toISOString(),
    source: { database: sources.database.kind, store: sources.blobStore.description },
    encryption: { format: 'age', recipients: keys.recipients },
    migrations: exported.migrations,
    tables: exported.tables,
    sequences: exported.sequences,
    blobs: { count: list.length, bytes, copied, list },
    timings: { databaseSeconds, totalSeconds: seconds },
  });
  await writeSignedManifest(location, manifest, keys.signingKey);
  for (const problem of problems) log(problem);
  return { manifest, problems };
}

/**
 * The blobs earlier backups hold in the pool under these recipients, as their signed manifests describe them
 * (the newest first; the older ones read only when a file in the pool is named by none of the newer). A
 * manifest this signing key did not sign is not believed: its files are copied again. A file in the pool
 * that no manifest names (a run that stopped) is written over.
 */
async function knownBlobs(
  location: BackupLocation,
  keys: BackupWriteKeys,
  keyset: string,
  log: (line: string) => void,
) {
  const verifyKey = createPublicKey(keys.signingKey);
  const pool = new Map<string, number>();
  for await (const file of location.list(`${BLOBS_DIR}/${keyset}/`)) pool.set(file.name, file.size);
  const finished = (await backupsIn(location)).filter((backup) => backup.complete).reverse();
  const entries = new Map<string, BlobEntry>();
  let read = 0;
  let reading: Promise<void> | undefined;
  const readNext = async () => {
    const next = finished[read++];
    if (!next) return;
    try {
      const manifest = await readSignedManifest(location, next.id, verifyKey);
      if (keysetOf(manifest.encryption.recipients) !== keyset) return;
      for (const entry of manifest.blobs.list) if (!entries.has(entry.sha256)) entries.set(entry.sha256, entry);
    } catch (error) {
      log(`backup ${next.id} is not one this signing key made (${(error as Error).message}); its blobs are not reused`);
    }
  };
  // Serialised: many blobs may ask at once, and each manifest is read once.
  const readOne = () => (reading = (reading ?? Promise.resolve()).then(readNext));
  if (finished.length) await readOne();
  return {
    async find(sha256: string): Promise<BlobEntry | undefined> {
      const size = pool.get(blobFile(keyset, sha256));
      if (size === undefined) return undefined;
      while (!entries.has(sha256) && read < finished.length) await readOne();
      await reading;
      const entry = entries.get(sha256);
      return entry && entry.sealed.size === size ? entry : undefined;
    },
  };
}
