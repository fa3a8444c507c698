import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';

export interface StoredBlob {
  sha256: string;
  size: number;
}

export interface ListedBlob extends StoredBlob {
  /** When it was written: the orphan clean-up leaves young blobs alone, a row may be about to name them. */
  modifiedAt: Date;
}

export interface PutOptions {
  maxBytes: number;
  /** Throw to refuse the body; sees at least the first HEAD_BYTES bytes (all of a shorter body). */
  validateHead?: (firstBytes: Uint8Array) => void;
}

export interface OpenedBlob {
  size: number;
  stream: Readable;
}

/**
 * Content-addressed storage of invoice files (and any other blob a row names by its sha256): a folder
 * (`createFsBlobStore`) or an S3-compatible bucket (`createS3BlobStore`), chosen by configuration.
 * Blobs are written whole or not at all and never change; only `portal verify --delete-orphans` deletes.
 */
export interface BlobStore {
  /** Where the blobs live, for logs, backup manifests and messages: `folder /srv/invoices` or `s3://bucket/prefix`. */
  readonly description: string;
  /** Streams `body` into the store; enforces maxBytes (throws BlobTooLargeError, leaving nothing behind); returns its hash and size. Idempotent for identical bytes. */
  put(body: AsyncIterable<Uint8Array> | Uint8Array, options: PutOptions): Promise<StoredBlob>;
  /** The blob's size and a stream of its bytes, or undefined when absent. Refuses ids that are not a sha256. */
  open(sha256: string): Promise<OpenedBlob | undefined>;
  /** Every blob the store holds, in no particular order: what `portal verify` compares with the rows. */
  list(): AsyncIterable<ListedBlob>;
  /** Removes one blob (absent is fine). Only the orphan clean-up calls it: a row may name any blob that exists. */
  delete(sha256: string): Promise<void>;
  /**
   * The internal path nginx answers a download from (X-Accel-Redirect): a file under the folder location, or
   * a short-lived presigned request for the object (deploy/nginx/portal.conf.template).
   */
  accelRedirectPath(sha256: string): Promise<string>;
  /**
   * Deletes temporary files that a crashed writer left behind. Only those older than `olderThanMs`: the
   * folder may be shared with a live process (the CLI beside the server) whose upload is still running.
   * Returns how many were removed.
   */
  removeStaleTemporaryFiles(olderThanMs: number): Promise<number>;
  /** Lets go of open connections (the object store's); the folder store holds nothing open. */
  close(): void;
}

/** The store could not be reached or did not answer in time: nobody's mistake, retried later. */
export class BlobStoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BlobStoreUnavailableError';
  }
}

/** The bytes a store gave back are not the bytes their name promises: a damaged store, never served. */
export class BlobIntegrityError extends Error {
  readonly sha256: string;

  constructor(sha256: string, detail: string) {
    super(`blob ${sha256} failed its integrity check: ${detail}`);
    this.sha256 = sha256;
    this.name = 'BlobIntegrityError';
  }
}

/**
 * Passes bytes through while hashing them; fails the stream at the end when they are not `expected`, so a
 * damaged object is never taken for the invoice (a download breaks off instead of completing).
 */
export function verifying(sha256: string, expectedSize: number | undefined) {
  const hash = createHash('sha256');
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      const actual = hash.digest('hex');
      if (expectedSize !== undefined && size !== expectedSize) {
        callback(new BlobIntegrityError(sha256, `${size} bytes arrived, the store announced ${expectedSize}`));
      } else if (actual !== sha256) {
        callback(new BlobIntegrityError(sha256, `the bytes hash to ${actual}`));
      } else {
        callback();
      }
    },
  });
}

/** nginx's internal location over the folder store (deploy/nginx/portal.conf.template). */
export const ACCEL_BLOB_LOCATION = '/_invoice-blobs/';

export class BlobTooLargeError extends Error {
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(`Blob exceeds the limit of ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
    this.name = 'BlobTooLargeError';
  }
}

/** Enough for a `%PDF-` magic check. */
export const HEAD_BYTES = 5;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Blob ids end up in file paths, so anything but a canonical hash is refused outright. */
export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value);
}

export function assertSha256Hex(value: string): void {
  if (!isSha256Hex(value)) throw new TypeError('Blob id must be 64 lowercase hex characters');
}

export function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

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
async function fsyncDirectory(dir: string): Promise<void> {
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

export function createFsBlobStore(rootDir: string): BlobStore {
  const tmpDir = join(rootDir, 'tmp');
  const shardOf = (sha256: string) => join(rootDir, sha256.slice(0, 2));
  const pathOf = (sha256: string) => join(shardOf(sha256), sha256);

  /** Moves a fully synced temp file into place; a rename is atomic, so readers never see partial blobs. */
  async function publish(tmpPath: string, blob: StoredBlob): Promise<void> {
    const finalPath = pathOf(blob.sha256);
    const existing = await stat(finalPath).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    if (existing?.size === blob.size) {
      // Same name means same content; keep the published file rather than churn it.
      await rm(tmpPath, { force: true });
      return;
    }
    const createdShard = await mkdir(shardOf(blob.sha256), { recursive: true });
    if (createdShard) await fsyncDirectory(rootDir);
    // Concurrent puts of identical bytes may both rename here; the last one wins with equal content.
    await rename(tmpPath, finalPath);
    await fsyncDirectory(shardOf(blob.sha256));
  }

  return {
    description: `folder ${rootDir}`,
    close: () => {},

    removeStaleTemporaryFiles: (olderThanMs) => removeStalePartFiles(tmpDir, olderThanMs),

    async *list() {
      const shards = await readdir(rootDir).catch((error: unknown) => {
        if (isNotFound(error)) return [];
        throw error;
      });
      for (const shard of shards.filter((name) => /^[0-9a-f]{2}$/.test(name)).sort()) {
        for (const name of (await readdir(join(rootDir, shard))).sort()) {
          if (!isSha256Hex(name) || !name.startsWith(shard)) continue;
          const info = await stat(join(rootDir, shard, name)).catch(() => undefined);
          if (info?.isFile()) yield { sha256: name, size: info.size, modifiedAt: info.mtime };
        }
      }
    },

    async delete(sha256) {
      assertSha256Hex(sha256);
      await rm(pathOf(sha256), { force: true });
    },

    // nginx serves the file itself: the location's alias is this folder, and the path below it is the blob's.
    accelRedirectPath: async (sha256) => {
      assertSha256Hex(sha256);
      return `${ACCEL_BLOB_LOCATION}${sha256.slice(0, 2)}/${sha256}`;
    },

    async put(body, options) {
      if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 0) {
        throw new RangeError('maxBytes must be a non-negative integer');
      }
      await mkdir(tmpDir, { recursive: true });
      const tmpPath = join(tmpDir, `${randomUUID()}.part`);
      const file = await open(tmpPath, 'wx');
      let closed = false;
      try {
        const blob = await streamInto(file, body, options);
        await file.sync();
        await file.close();
        closed = true;
        await publish(tmpPath, blob);
        return blob;
      } catch (error) {
        if (!closed) await file.close().catch(() => undefined);
        await rm(tmpPath, { force: true });
        throw error;
      }
    },

    async open(sha256) {
      assertSha256Hex(sha256);
      // Opening the handle first turns "absent" into undefined instead of a later stream error.
      const handle = await open(pathOf(sha256), 'r').catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });
      if (!handle) return undefined;
      try {
        const { size } = await handle.stat();
        // Hashed on the way out as from the bucket: a file damaged on disk is never served as the invoice.
        const checked = verifying(sha256, size);
        const source = handle.createReadStream();
        source.on('error', (error) => checked.destroy(error));
        checked.on('close', () => source.destroy());
        return { size, stream: source.pipe(checked) };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
  };
}
