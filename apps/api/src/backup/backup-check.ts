import type { Readable } from 'node:stream';
import type { Identity } from 'age-encryption';
import { forEachConcurrently } from '../lib/concurrently.ts';
import { hashStream } from './blob-copy.ts';
import { backupIdentities } from './blob-keys.ts';
import { chooseBackup } from './catalogue.ts';
import type { BackupReadKeys } from './keys.ts';
import { locationOf, type BackupLocation } from './location.ts';
import {
  BackupTamperedError,
  backupDir,
  blobFile,
  keysetOf,
  readSignedManifest,
  tableFile,
  type BackupManifest,
} from './manifest.ts';
import { digestFile, openSealed, WrongIdentityError, type SealedDigest } from './sealed-file.ts';

const FILES_AT_ONCE = 4;

/**
 * Every file the manifest names, where it lies in the location (derived from the backup's id and a table
 * name, or from a sha256 and the recipients, never read from it), and as it is shown in messages.
 */
export function backupFiles(manifest: BackupManifest) {
  const keyset = keysetOf(manifest.encryption.recipients);
  return [
    ...manifest.tables.map((table) => ({
      file: tableFile(table.name),
      at: `${backupDir(manifest.id)}/${tableFile(table.name)}`,
      sealed: table.sealed,
      plain: { sha256: table.sha256, size: undefined },
    })),
    ...manifest.blobs.list.map((blob) => ({
      file: blobFile(keyset, blob.sha256),
      at: blobFile(keyset, blob.sha256),
      sealed: blob.sealed,
      plain: { sha256: blob.sha256, size: blob.size },
    })),
  ];
}

const sameDigest = (a: SealedDigest, b: SealedDigest) => a.sha256 === b.sha256 && a.size === b.size;

async function sealedDigestOf(location: BackupLocation, name: string): Promise<SealedDigest | undefined> {
  const stream = await location.openRead(name);
  return stream ? digestFile(stream) : undefined;
}

/** A file of the backup, decrypting; BackupTamperedError when it is absent. */
export async function openBackupFile(
  location: BackupLocation,
  name: string,
  identities: (string | Identity)[],
): Promise<Readable> {
  const stream = await location.openRead(name);
  if (!stream) throw new BackupTamperedError(`${name} is missing from the backup.`);
  return openSealed(stream, identities);
}

/**
 * Every file of the backup is, byte for byte, the one the signed manifest names (sha256 and size of the
 * encrypted bytes; nothing is decrypted). Throws BackupTamperedError at the first that is not, or is absent.
 */
export async function checkSealedFiles(location: BackupLocation, manifest: BackupManifest): Promise<void> {
  await forEachConcurrently(backupFiles(manifest), FILES_AT_ONCE, async ({ file, at, sealed }) => {
    const found = await sealedDigestOf(location, at);
    if (!found) throw new BackupTamperedError(`${file} is missing from the backup.`);
    if (!sameDigest(found, sealed)) {
      throw new BackupTamperedError(`${file} is not the file the signed manifest names: it was changed or replaced.`);
    }
  });
}

function wrongIdentity(manifest: BackupManifest): BackupTamperedError {
  const recipients = manifest.encryption.recipients.map((recipient) => `${recipient.slice(0, 16)}…`).join(', ');
  return new BackupTamperedError(
    `BACKUP_IDENTITY does not open this backup: it was encrypted to ${recipients}. Give the identity of one of them.`,
  );
}

/** Fails at once, before anything is written anywhere, when the identities open none of the backup's files. */
export async function checkIdentityOpens(location: BackupLocation, manifest: BackupManifest, identities: string[]) {
  const [first] = backupFiles(manifest);
  if (!first) return;
  try {
    (await openBackupFile(location, first.at, identities)).destroy();
  } catch (error) {
    if (error instanceof WrongIdentityError) throw wrongIdentity(manifest);
    throw error;
  }
}

export interface BackupCheckReport {
  manifest: BackupManifest;
  files: number;
  /** One line per file that is absent, changed, or does not decrypt to what the manifest says. */
  problems: string[];
  seconds: number;
}

export interface CheckOptions {
  /** Which backup of the location (default: the newest finished). */
  backup?: string | undefined;
  log?: (line: string) => void;
}

/**
 * `portal verify <location> [<backup>]`: a backup is one this portal made (the manifest's signature) and can be
 * restored: every file is there as signed, those copied by earlier runs included, and decrypts, with the
 * identity given, to the bytes its manifest describes. Opens no database and no store.
 */
export async function checkBackup(
  target: BackupLocation | string,
  keys: BackupReadKeys,
  options: CheckOptions = {},
): Promise<BackupCheckReport> {
  const log = options.log ?? (() => {});
  const location = locationOf(target);
  const started = performance.now();
  const id = await chooseBackup(location, options.backup);
  const manifest = await readSignedManifest(location, id, keys.verifyKey);
  log(
    `${location.description} backup ${id}: signature good (made ${manifest.createdAt}, ${manifest.migrations.applied} migrations)`,
  );
  await checkIdentityOpens(location, manifest, keys.identities);
  const files = backupFiles(manifest);
  const identities = backupIdentities(location, keysetOf(manifest.encryption.recipients), keys.identities);
  const problems: string[] = [];
  await forEachConcurrently(files, FILES_AT_ONCE, async ({ file, at, sealed, plain }) => {
    // The encrypted bytes first: a file changed on disk says so, rather than failing to decrypt somewhere.
    const found = await sealedDigestOf(location, at);
    if (!found) return void problems.push(`missing: ${file}`);
    if (!sameDigest(found, sealed)) return void problems.push(`changed: ${file} is not the file signed`);
    try {
      const read = await hashStream(await openBackupFile(location, at, identities));
      if (read.sha256 !== plain.sha256 || (plain.size !== undefined && read.size !== plain.size))
        problems.push(`damaged: ${file} does not decrypt to the bytes its manifest describes`);
    } catch (error) {
      problems.push(`damaged: ${file} does not decrypt (${(error as Error).message})`);
    }
  });
  problems.sort();
  for (const problem of problems) log(problem);
  const seconds = (performance.now() - started) / 1000;
  log(
    `checked ${files.length} files (${manifest.tables.length} tables, ${manifest.blobs.count} invoice files, ${manifest.blobs.count - manifest.blobs.copied} of them copied by earlier backups): ${problems.length} problems (${seconds.toFixed(1)} s)`,
  );
  return { manifest, files: files.length, problems, seconds };
}
