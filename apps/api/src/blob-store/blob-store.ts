import { createHash } from 'node:crypto';
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
  /** Which kind of store: the metrics' `store` label. */
  readonly kind: 'folder' | 's3';
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
  /**
   * Calls `listener` on every answer in which the store says it is overloaded (a bucket's 503 SlowDown),
   * retries included: the only sign of throttling the SDK's retry would otherwise hide. The folder has none.
   */
  onThrottled?(listener: () => void): void;
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
