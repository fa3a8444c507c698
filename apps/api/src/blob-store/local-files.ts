import { createHash } from 'node:crypto';
import { type FileHandle, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobTooLargeError, HEAD_BYTES, isNotFound, type PutOptions } from './blob-store.ts';

// What both stores do with local files: the folder store keeps its blobs so, the bucket store stages uploads.
async function* chunksOf(body: AsyncIterable<Uint8Array> | Uint8Array): AsyncIterable<Uint8Array> {
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  for await (const chunk of body) {
    // A stream in string mode would otherwise be hashed and sized as something else than it stores.
    if (!(chunk instanceof Uint8Array)) throw new TypeError('Blob body must yield Uint8Array chunks');
    yield chunk;
  }
}

async function writeFully(file: FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await file.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

/** Without this, a rename or new entry can be lost on power failure even though the data was synced. */
export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Copies the body into `file`, hashing as it goes. Nothing is written until validateHead has
 * accepted the head, so a refused body never touches the disk beyond the empty temp file.
 */
export async function streamInto(file: FileHandle, body: AsyncIterable<Uint8Array> | Uint8Array, options: PutOptions) {
  const hash = createHash('sha256');
  let size = 0;
  let pendingHead: Uint8Array[] | undefined = options.validateHead ? [] : undefined;

  const flushHead = async (): Promise<void> => {
    if (!pendingHead) return;
    const head = Buffer.concat(pendingHead);
    pendingHead = undefined;
    options.validateHead?.(head);
    await writeFully(file, head);
  };

  for await (const chunk of chunksOf(body)) {
    size += chunk.length;
    if (size > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
    hash.update(chunk);
    if (pendingHead) {
      pendingHead.push(chunk);
      if (size >= HEAD_BYTES) await flushHead();
    } else {
      await writeFully(file, chunk);
    }
  }
  await flushHead();
  return { sha256: hash.digest('hex'), size };
}

/** Removes `*.part` files in `dir` older than `olderThanMs`; see BlobStore.removeStaleTemporaryFiles. */
export async function removeStalePartFiles(dir: string, olderThanMs: number): Promise<number> {
  const names = await readdir(dir).catch((error: unknown) => {
    if (isNotFound(error)) return [];
    throw error;
  });
  let removed = 0;
  for (const name of names.filter((candidate) => candidate.endsWith('.part'))) {
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info || Date.now() - info.mtimeMs < olderThanMs) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}
