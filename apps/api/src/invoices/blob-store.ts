import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface PutOptions {
  maxBytes: number;
  /** Sees at least the first 5 bytes (or the whole body if shorter) before anything is kept; throws to refuse. */
  validateHead?: (firstBytes: Uint8Array) => void;
}

/**
 * Content-addressed storage of invoice files. The filesystem implementation is the only one today; an
 * S3-compatible store implements the same three calls.
 */
export interface BlobStore {
  /** Streams `body` in; enforces maxBytes (BlobTooLargeError) leaving nothing behind; idempotent for identical bytes. */
  put(body: AsyncIterable<Uint8Array> | Uint8Array, options: PutOptions): Promise<StoredBlob>;
  open(sha256: string): Promise<{ size: number; stream: Readable } | undefined>;
  has(sha256: string): Promise<boolean>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The body is larger than ${maxBytes} bytes`);
  }
}

const HEAD_BYTES = 5;
const SHA256_HEX = /^[0-9a-f]{64}$/;

export function createFsBlobStore(rootDir: string): BlobStore {
  const tmpDir = path.join(rootDir, 'tmp');
  const blobPath = (sha256: string) => path.join(rootDir, sha256.slice(0, 2), sha256);
  const checkedPath = (sha256: string) => (SHA256_HEX.test(sha256) ? blobPath(sha256) : undefined);

  async function fsyncDirectory(dir: string) {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    async put(body, options) {
      await mkdir(tmpDir, { recursive: true });
      const tmpFile = path.join(tmpDir, `${randomUUID()}.part`);
      const handle = await open(tmpFile, 'wx');
      const hash = createHash('sha256');
      let size = 0;
      let head = new Uint8Array(0);
      let headChecked = !options.validateHead;
      let closed = false;
      try {
        const chunks: AsyncIterable<Uint8Array> | Uint8Array[] = body instanceof Uint8Array ? [body] : body;
        for await (const chunk of chunks) {
          size += chunk.length;
          if (size > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
          if (!headChecked) {
            head = Buffer.concat([head, chunk]);
            if (head.length >= HEAD_BYTES) {
              options.validateHead?.(head);
              headChecked = true;
            }
          }
          hash.update(chunk);
          await handle.write(chunk);
        }
        if (!headChecked) options.validateHead?.(head);
        await handle.sync();
        await handle.close();
        closed = true;
        const sha256 = hash.digest('hex');
        const target = blobPath(sha256);
        await mkdir(path.dirname(target), { recursive: true });
        // rename is atomic: readers see the whole file or none; identical bytes simply replace themselves.
        await rename(tmpFile, target);
        await fsyncDirectory(path.dirname(target));
        return { sha256, size };
      } catch (error) {
        if (!closed) await handle.close().catch(() => {});
        await rm(tmpFile, { force: true });
        throw error;
      }
    },

    async open(sha256) {
      const file = checkedPath(sha256);
      if (!file) return undefined;
      try {
        const { size } = await stat(file);
        return { size, stream: createReadStream(file) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async has(sha256) {
      const file = checkedPath(sha256);
      if (!file) return false;
      return stat(file).then(
        () => true,
        () => false,
      );
    },
  };
}
