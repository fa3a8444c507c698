import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  GetObjectRetentionCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectRetentionCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertSha256Hex,
  BlobStoreUnavailableError,
  isSha256Hex,
  type BlobStore,
  type StoredBlob,
  verifying,
} from './blob-store.ts';
import { removeStalePartFiles, streamInto } from './local-files.ts';

/** nginx's internal location that fetches a presigned object request (deploy/nginx/portal.conf.template). */
export const ACCEL_OBJECT_LOCATION = '/_invoice-objects';

export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix without leading or trailing slash; may be empty. Blobs live at `<prefix>/<ab>/<sha256>`. */
  prefix: string;
  /** The S3 API's address when not AWS's own (MinIO, Ceph RGW, Google Cloud Storage, a local test server). */
  endpoint?: string | undefined;
  region: string;
  /** `bucket` in the path instead of the host name: what most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Longest wait for the store to start answering one call; the caller then gets "unavailable". */
  timeoutMs: number;
  /** How long a presigned download request (nginx's) stays valid. */
  presignSeconds: number;
  /** Where an upload is held while its hash is worked out (the store checks it on arrival); default: the OS's temp folder. */
  spoolDir?: string;
  /**
   * S3 Object Lock: every object is written with this retention (mode, and until `years` after it is written),
   * and an object found already there has its retention extended to that, never shortened. The bucket must have
   * Object Lock enabled; it then refuses to delete or overwrite the object before that date, whoever asks.
   */
  objectLock?: { mode: 'GOVERNANCE' | 'COMPLIANCE'; years: number } | undefined;
}

/** When an object written now may be deleted under the lock: `years` on, to the second. */
export function lockedUntil(years: number, now = new Date()): Date {
  const until = new Date(now);
  until.setUTCFullYear(until.getUTCFullYear() + years);
  until.setUTCMilliseconds(0);
  return until;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/**
 * True when the store could not be reached or answer in time, or said it is overloaded or broken (5xx, SlowDown):
 * conditions that pass. A refusal (403 AccessDenied, NoSuchBucket) is a configuration mistake, not this.
 */
export function isStoreUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as Error).cause, depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (name === 'TimeoutError' || name === 'AbortError' || name === 'RequestTimeout') return true;
    if (current instanceof S3ServiceException) {
      const status = current.$metadata.httpStatusCode ?? 0;
      return status >= 500 || current.name === 'SlowDown';
    }
    if (current instanceof AggregateError && current.errors.some(isStoreUnreachable)) return true;
  }
  return false;
}

/** The bucket said it is overloaded: 503 (SlowDown, Service Unavailable) or a throttling code of another S3 API. */
export function isThrottling(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return (
    error.$metadata.httpStatusCode === 503 ||
    ['SlowDown', 'ServiceUnavailable', 'Throttling', 'ThrottlingException', 'RequestLimitExceeded'].includes(error.name)
  );
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/**
 * The invoice store in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Google Cloud Storage's XML API),
 * through the AWS SDK v3 and its standard credential chain (environment, profile, web identity, instance role).
 *
 * An upload is held in a temporary file while its SHA-256 is worked out, then sent in one PutObject that
 * carries it (ChecksumSHA256): the store refuses bytes that do not match, and an object appears whole or not
 * at all, so a crash mid-upload leaves nothing that a row could name. Reads are hashed on the way out.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore & { client: S3Client } {
  const { bucket, prefix, timeoutMs } = options;
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    // The SDK's default CRC32 trailers (aws-chunked bodies) are not understood by every S3-compatible store;
    // the SHA-256 this store sends itself is the checksum that matters, and reads are checked against it.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // One retry: a refused or reset connection gets a second chance, an outage still answers in seconds.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: Math.min(timeoutMs, 2000), requestTimeout: timeoutMs },
  });
  const spoolDir = options.spoolDir ?? join(os.tmpdir(), 'portal-invoice-spool');
  const keyPrefix = prefix ? `${prefix}/` : '';
  const keyOf = (sha256: string) => `${keyPrefix}${sha256.slice(0, 2)}/${sha256}`;

  /**
   * Runs one call and gives up on it after timeoutMs without an answer. Only the wait for the answer's
   * head is bounded: a long download that keeps moving is not cut off (the socket's idle timeout covers a stall).
   */
  async function call<T>(send: (abortSignal: AbortSignal) => Promise<T>, what: string): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await send(controller.signal);
    } catch (error) {
      if (controller.signal.aborted || isStoreUnreachable(error)) {
        throw new BlobStoreUnavailableError(`the invoice store (s3://${bucket}/${prefix}) did not ${what}`, {
          cause: error,
        });
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async function sizeOf(sha256: string): Promise<number | undefined> {
    try {
      const head = await call(
        (abortSignal) => client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(sha256) }), { abortSignal }),
        'answer',
      );
      return head.ContentLength;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async function extendLock(sha256: string, lock: NonNullable<S3BlobStoreOptions['objectLock']>) {
    const Key = keyOf(sha256);
    const until = lockedUntil(lock.years);
    const current = await call(
      (abortSignal) => client.send(new GetObjectRetentionCommand({ Bucket: bucket, Key }), { abortSignal }),
      'answer',
    ).catch((error: unknown) => {
      // An object written before the lock was configured has no retention yet.
      if (error instanceof S3ServiceException && error.name === 'NoSuchObjectLockConfiguration') return undefined;
      throw error;
    });
    const retainUntil = current?.Retention?.RetainUntilDate;
    if (retainUntil && retainUntil >= until && current?.Retention?.Mode === lock.mode) return;
    await call(
      (abortSignal) =>
        client.send(
          new PutObjectRetentionCommand({
            Bucket: bucket,
            Key,
            Retention: { Mode: lock.mode, RetainUntilDate: retainUntil && retainUntil > until ? retainUntil : until },
          }),
          { abortSignal },
        ),
      'extend the lock',
    );
  }

  const throttleListeners: (() => void)[] = [];
  // Below the SDK's retry, so each attempt's answer is seen: a SlowDown the retry recovered from still counts.
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isThrottling(error)) for (const listener of throttleListeners) listener();
        throw error;
      }
    },
    { step: 'deserialize', name: 'portalThrottleWatch', priority: 'high' },
  );

  return {
    kind: 's3',
    client,
    description: `s3://${bucket}/${prefix}`,
    onThrottled: (listener) => void throttleListeners.push(listener),
    close: () => client.destroy(),

    removeStaleTemporaryFiles: (olderThanMs) => removeStalePartFiles(spoolDir, olderThanMs),

    async put(body, putOptions) {
      if (!Number.isSafeInteger(putOptions.maxBytes) || putOptions.maxBytes < 0) {
        throw new RangeError('maxBytes must be a non-negative integer');
      }
      await mkdir(spoolDir, { recursive: true });
      const spoolPath = join(spoolDir, `${randomUUID()}.part`);
      const file = await open(spoolPath, 'wx');
      let closed = false;
      try {
        const blob: StoredBlob = await streamInto(file, body, putOptions);
        await file.close();
        closed = true;
        // Same key means same bytes, and objects are written whole: one that is there is this one.
        if ((await sizeOf(blob.sha256)) === blob.size) {
          // A new version with the bytes of an old one: its copy must now stay as long as the new version must.
          if (options.objectLock) await extendLock(blob.sha256, options.objectLock);
          return blob;
        }
        const lock = options.objectLock
          ? {
              ObjectLockMode: options.objectLock.mode,
              ObjectLockRetainUntilDate: lockedUntil(options.objectLock.years),
            }
          : {};
        await call(
          (abortSignal) =>
            client.send(
              new PutObjectCommand({
                Bucket: bucket,
                Key: keyOf(blob.sha256),
                Body: createReadStream(spoolPath),
                ContentLength: blob.size,
                ContentType: 'application/octet-stream',
                ChecksumSHA256: Buffer.from(blob.sha256, 'hex').toString('base64'),
                ...lock,
              }),
              { abortSignal },
            ),
          'accept the invoice',
        );
        return blob;
      } finally {
        if (!closed) await file.close().catch(() => undefined);
        await rm(spoolPath, { force: true });
      }
    },

    async open(sha256) {
      assertSha256Hex(sha256);
      let object;
      try {
        object = await call(
          (abortSignal) => client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(sha256) }), { abortSignal }),
          'answer',
        );
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
      const source = object.Body as Readable;
      const size = object.ContentLength ?? 0;
      const checked = verifying(sha256, object.ContentLength);
      source.on('error', (error) => checked.destroy(error));
      checked.on('close', () => source.destroy());
      return { size, stream: source.pipe(checked) };
    },

    async *list() {
      let continuationToken: string | undefined;
      const keyPattern = new RegExp(`^${keyPrefix.replace(/[.]/g, '\\.')}([0-9a-f]{2})/([0-9a-f]{64})$`);
      do {
        const page = await call(
          (abortSignal) =>
            client.send(
              new ListObjectsV2Command({
                Bucket: bucket,
                Prefix: keyPrefix,
                ...(continuationToken ? { ContinuationToken: continuationToken } : {}),
              }),
              { abortSignal },
            ),
          'list its objects',
        );
        for (const object of page.Contents ?? []) {
          const match = keyPattern.exec(object.Key ?? '');
          if (match && isSha256Hex(match[2]!) && match[2]!.startsWith(match[1]!)) {
            yield { sha256: match[2]!, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
          }
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
    },

    async delete(sha256) {
      assertSha256Hex(sha256);
      await call(
        (abortSignal) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(sha256) }), { abortSignal }),
        'delete the object',
      );
    },

    /**
     * A presigned GET, handed to nginx as a path below its internal location: nginx sends it to the store
     * (its upstream is this endpoint) and streams the answer to the client, so the bytes never pass through
     * Node. Signing is local (no call to the store), and the request is valid for presignSeconds only.
     */
    async accelRedirectPath(sha256) {
      assertSha256Hex(sha256);
      const url = new URL(
        await getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: keyOf(sha256) }), {
          expiresIn: options.presignSeconds,
        }),
      );
      return `${ACCEL_OBJECT_LOCATION}${url.pathname}${url.search}`;
    },
  };
}
