import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { EPHEMERAL_TABLE_NAMES } from '../db/ephemeral-tables.ts';
import { LocationTooLargeError, type BackupLocation } from './location.ts';

export const MANIFEST_FILE = 'manifest.json';
/** The manifest's Ed25519 signature, base64: beside it, so the manifest stays the bytes that were signed. */
export const SIGNATURE_FILE = 'manifest.json.sig';
export const DATABASE_DIR = 'database';
export const BLOBS_DIR = 'blobs';
const FORMAT = 'parcel-invoice-portal-backup';
const VERSION = 3;
/**
 * Signed before the manifest's bytes: a signature made for a backup manifest cannot be passed off as one over
 * anything else, should the key ever sign something else.
 */
const SIGNING_CONTEXT = Buffer.from(`${FORMAT} manifest v${VERSION}\n`);
/** Far above a manifest of a million invoices (about 250 bytes each): a larger one is read as a refusal, not into memory. */
const MAX_MANIFEST_BYTES = 512 * 1024 * 1024;

export const BACKUPS_DIR = 'backups';
/** A backup's name: when it was started, to the millisecond, UTC; sorts as it was made. */
export const BACKUP_ID = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
export const backupIdAt = (date: Date) => date.toISOString().replace(/[:.]/g, '-');

/**
 * Where each file of a backup lies: derived from a backup id, a table's name, or a blob's sha256 and the
 * recipients it was encrypted to, never taken from the manifest as it is, so no manifest can make restore
 * read elsewhere. A backup location holds many backups: each one's own folder (manifest, signature, tables)
 * under backups/<id>/, and one pool of blobs they share, so a blob is copied once, by the first backup that
 * needs it, and every later backup names that copy.
 */
export const backupDir = (id: string) => `${BACKUPS_DIR}/${id}`;
export const tableFile = (name: string) => `${DATABASE_DIR}/${name}.jsonl.age`;
/**
 * The recipients' fingerprint in a blob's path: a copy encrypted to other keys (after a key change) is
 * another file, so a new backup never replaces a file that an earlier backup's signed digest names.
 */
export const keysetOf = (recipients: string[]) =>
  createHash('sha256')
    .update([...recipients].sort().join('\n'))
    .digest('hex')
    .slice(0, 16);
export const blobFile = (keyset: string, sha256: string) =>
  `${BLOBS_DIR}/${keyset}/${sha256.slice(0, 2)}/${sha256}.age`;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const tableName = z.string().regex(/^[a-z_][a-z0-9_]*$/);
/** A file as it lies in the backup, encrypted: checked before a byte of it is decrypted. */
const sealedDigest = z.object({ sha256: sha256Hex, size: z.number().int().nonnegative() });

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(VERSION),
  /** The folder it lies in (backups/<id>/): a manifest moved into another backup's folder is refused. */
  id: z.string().regex(BACKUP_ID),
  createdAt: z.string().datetime({ offset: true }),
  source: z.object({ database: z.enum(['postgres', 'pglite']), store: z.string() }),
  /** Who can read it: the age recipients every file was encrypted to (public keys). */
  encryption: z.object({ format: z.literal('age'), recipients: z.array(z.string()).min(1) }),
  /** The schema the rows were read from: how many migrations were applied, and the last one's journal `when`. */
  migrations: z.object({ applied: z.number().int(), lastWhen: z.number().int() }),
  tables: z.array(
    z
      .object({
        name: tableName.refine((name) => !EPHEMERAL_TABLE_NAMES.has(name), {
          error: 'is a table of short-lived state, which backups leave out',
        }),
        columns: z.array(z.string()),
        rows: z.number().int().nonnegative(),
        /** tableFile(name): one JSON object per line, as PostgreSQL's row_to_json wrote it, encrypted. */
        file: z.string(),
        /** Of the plaintext (the lines). */
        sha256: sha256Hex,
        sealed: sealedDigest,
      })
      .refine((table) => table.file === tableFile(table.name), {
        error: (issue) => {
          const table = issue.input as { name: string; file: unknown };
          return `names the file ${JSON.stringify(table.file)}; the only file a table ${table.name} may have is ${tableFile(table.name)}`;
        },
        path: ['file'],
      }),
  ),
  /** Sequences as read in the snapshot; restored with setval so no id is handed out twice. */
  sequences: z.array(z.object({ name: tableName, lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() })),
  blobs: z.object({
    count: z.number().int(),
    bytes: z.number().int(),
    /** How many of them this backup's run copied; the others it names as earlier runs copied them. */
    copied: z.number().int().nonnegative(),
    /**
     * Every blob a row names, in the shared pool at blobFile(keysetOf(recipients), sha256); size and sha256
     * are the plaintext's; copiedBy the backup whose run wrote that file.
     */
    list: z.array(
      z.object({
        sha256: sha256Hex,
        size: z.number().int().nonnegative(),
        sealed: sealedDigest,
        copiedBy: z.string().regex(BACKUP_ID),
      }),
    ),
  }),
  timings: z.record(z.string(), z.number()).optional(),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type BackupTable = BackupManifest['tables'][number];

export function newManifest(fields: Omit<BackupManifest, 'format' | 'version'>): BackupManifest {
  return { format: FORMAT, version: VERSION, ...fields };
}

/**
 * The signature first, then the manifest, each written whole: a backup folder without a manifest is a backup
 * that did not finish, and one with a manifest always has its signature.
 */
export async function writeSignedManifest(
  location: BackupLocation,
  manifest: BackupManifest,
  signingKey: KeyObject,
): Promise<void> {
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const signature = sign(null, Buffer.concat([SIGNING_CONTEXT, bytes]), signingKey);
  await location.writeSmall(`${backupDir(manifest.id)}/${SIGNATURE_FILE}`, `${signature.toString('base64')}\n`);
  await location.writeSmall(`${backupDir(manifest.id)}/${MANIFEST_FILE}`, bytes);
}

/** Not a backup this release reads: no manifest, another format, a manifest that breaks the rules. */
export class BackupFormatError extends Error {}

/** The backup is not as it was made: a signature that does not verify, a file that is not what the manifest says. */
export class BackupTamperedError extends Error {}

async function readBounded(location: BackupLocation, name: string): Promise<Buffer | undefined> {
  try {
    return await location.readSmall(name, MAX_MANIFEST_BYTES);
  } catch (error) {
    if (error instanceof LocationTooLargeError)
      throw new BackupFormatError(`${error.message}: too large to be a manifest.`);
    throw error;
  }
}

/**
 * The manifest, once its signature has verified under `verifyKey`, and only then parsed: nothing of an
 * unsigned or changed manifest is believed, not even its format.
 */
export async function readSignedManifest(
  location: BackupLocation,
  id: string,
  verifyKey: KeyObject,
): Promise<BackupManifest> {
  if (!BACKUP_ID.test(id)) throw new BackupFormatError(`${id} is not the name of a backup (2026-01-31T02-00-00-000Z).`);
  const dir = `${location.description}/${backupDir(id)}`;
  const manifestPath = `${dir}/${MANIFEST_FILE}`;
  const bytes = await readBounded(location, `${backupDir(id)}/${MANIFEST_FILE}`);
  if (!bytes) {
    throw new BackupFormatError(
      `${dir} has no ${MANIFEST_FILE}: there is no such backup, or it did not finish (the manifest is written last).`,
    );
  }
  const signatureText = await readBounded(location, `${backupDir(id)}/${SIGNATURE_FILE}`);
  if (!signatureText) {
    throw new BackupTamperedError(
      `${dir} has no ${SIGNATURE_FILE}: an unsigned backup (one made before backups were signed, or one someone wrote) is never restored.`,
    );
  }
  const signature = Buffer.from(signatureText.toString('utf8').trim(), 'base64');
  if (signature.length !== 64 || !verify(null, Buffer.concat([SIGNING_CONTEXT, bytes]), verifyKey, signature)) {
    throw new BackupTamperedError(
      `${manifestPath} does not match its signature under BACKUP_VERIFY_KEY: it was changed after the backup was made, or it was signed with another key.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupFormatError(`${manifestPath} is not JSON.`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || 'manifest'} ${issue.message}`);
    throw new BackupFormatError(
      `${manifestPath} is not a backup manifest this release reads:\n  ${problems.join('\n  ')}`,
    );
  }
  if (parsed.data.id !== id) {
    throw new BackupTamperedError(
      `${manifestPath} is the signed manifest of backup ${parsed.data.id}, not of ${id}: it was moved into this backup's folder.`,
    );
  }
  return parsed.data;
}
