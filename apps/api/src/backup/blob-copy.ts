import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where a backup keeps a blob: the folder store's layout, so the folder can also serve as one. */
export const backupBlobPath = (blobsDir: string, sha256: string) => path.join(blobsDir, sha256.slice(0, 2), sha256);

/**
 * Copies a blob's stream into the backup folder under its name, and only when its bytes hash to that name
 * (written beside, then renamed). Returns the size; throws when the bytes are not what the name says.
 */
export async function copyBlobInto(blobsDir: string, sha256: string, stream: Readable): Promise<number> {
  const target = backupBlobPath(blobsDir, sha256);
  await mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.${randomUUID()}.part`;
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      stream,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(partial),
    );
    const actual = hash.digest('hex');
    if (actual !== sha256) throw new Error(`blob ${sha256} read back as bytes that hash to ${actual}`);
    await rename(partial, target);
    return size;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** Reads a stream to its end and returns its sha256 and size. */
export async function hashStream(stream: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
