import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_DIR = 'database';
export const BLOBS_DIR = 'blobs';
const FORMAT = 'parcel-invoice-portal-backup';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const tableName = z.string().regex(/^[a-z_][a-z0-9_]*$/);

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(1),
  createdAt: z.string(),
  source: z.object({ database: z.enum(['postgres', 'pglite']), store: z.string() }),
  /** The schema the rows were read from: how many migrations were applied, and the last one's journal `when`. */
  migrations: z.object({ applied: z.number().int(), lastWhen: z.number().int() }),
  tables: z.array(
    z.object({
      name: tableName,
      columns: z.array(z.string()),
      rows: z.number().int(),
      /** Relative to the backup folder: one JSON object per line, as PostgreSQL's row_to_json wrote it. */
      file: z.string(),
      sha256: sha256Hex,
    }),
  ),
  /** Sequences as read in the snapshot; restored with setval so no id is handed out twice. */
  sequences: z.array(z.object({ name: tableName, lastValue: z.string(), isCalled: z.boolean() })),
  blobs: z.object({
    count: z.number().int(),
    bytes: z.number().int(),
    /** Every blob a row names, stored under blobs/<ab>/<sha256> (the folder store's layout). */
    list: z.array(z.object({ sha256: sha256Hex, size: z.number().int() })),
  }),
  timings: z.record(z.string(), z.number()).optional(),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type BackupTable = BackupManifest['tables'][number];

export function newManifest(fields: Omit<BackupManifest, 'format' | 'version'>): BackupManifest {
  return { format: FORMAT, version: 1, ...fields };
}

/** Written last, and by rename: a folder without a manifest is a backup that did not finish. */
export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  const target = path.join(dir, MANIFEST_FILE);
  await writeFile(`${target}.part`, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(`${target}.part`, target);
}

export class BackupFormatError extends Error {}

export async function readManifest(dir: string): Promise<BackupManifest> {
  let text;
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupFormatError(
        `${dir} has no ${MANIFEST_FILE}: it is not a backup, or the backup did not finish (the manifest is written last).`,
      );
    }
    throw error;
  }
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new BackupFormatError(`${path.join(dir, MANIFEST_FILE)} is not a backup manifest this release reads.`);
  }
  return parsed.data;
}
