import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Recipient } from 'age-encryption';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { parseS3Url } from '../blob-store/s3-location.ts';
import { ConfigError } from '../config.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, writeSealed, type SealedDigest } from './sealed-file.ts';

/** A file of a backup location, named relative to its root (`backups/<id>/manifest.json`, `blobs/…`). */
export interface LocationFile {
  name: string;
  size: number;
  modifiedAt: Date;
}

/**
 * Where backups live: a folder or an S3-compatible bucket, seen as files named relative to one root. Every
 * name passed in is made by the backup code from a backup id, a table name or a sha256 (manifest.ts), never
 * taken from a manifest as it stands.
 */
export interface BackupLocation {
  /** `folder /srv/backups` or `s3://bucket/prefix`, for logs and messages. */
  readonly description: string;
  /** Makes the root (a folder: owner-only). */
  prepare(): Promise<void>;
  /** Encrypts `plaintext` to the recipients into `name`, whole or not at all; the encrypted file's digest. */
  writeSealed(
    name: string,
    plaintext: AsyncIterable<Uint8Array>,
    recipients: (string | Recipient)[],
  ): Promise<SealedDigest>;
  /** A small file (manifest, signature), whole or not at all. */
  writeSmall(name: string, bytes: Buffer | string): Promise<void>;
  /** A small file, or undefined when absent; larger than maxBytes is an error, not read into memory. */
  readSmall(name: string, maxBytes: number): Promise<Buffer | undefined>;
  /** The file's bytes as they lie, or undefined when absent. */
  openRead(name: string): Promise<Readable | undefined>;
  /** Every file whose name starts with `prefix` (a folder name ending in `/`), in no particular order. */
  list(prefix: string): AsyncIterable<LocationFile>;
  /** Removes one file (absent is fine). */
  delete(name: string): Promise<void>;
  close(): void;
}

export class LocationTooLargeError extends Error {}

/** A folder on this machine (or a mounted share): folders 0700, files 0600. */
export function folderLocation(root: string): BackupLocation {
  const full = (name: string) => path.join(root, ...name.split('/'));
  return {
    description: `folder ${root}`,
    async prepare() {
      await mkdir(root, { recursive: true, mode: PRIVATE_DIR_MODE });
      // A folder made beforehand keeps its own mode unless told.
      await chmod(root, PRIVATE_DIR_MODE);
    },
    writeSealed: (name, plaintext, recipients) => writeSealed(full(name), plaintext, recipients),
    async writeSmall(name, bytes) {
      const target = full(name);
      await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      const partial = `${target}.${randomUUID()}.part`;
      await writeFile(partial, bytes, { mode: PRIVATE_FILE_MODE });
      await rename(partial, target);
    },
    async readSmall(name, maxBytes) {
      const info = await stat(full(name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (!info) return undefined;
      if (info.size > maxBytes) throw new LocationTooLargeError(`${name} is ${info.size} bytes`);
      return readFile(full(name));
    },
    async openRead(name) {
      try {
        await stat(full(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      return createReadStream(full(name));
    },
    async *list(prefix) {
      const base = full(prefix.replace(/\/$/, ''));
      const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return [];
          throw error;
        },
      );
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        const info = await stat(file).catch(() => undefined);
        if (!info) continue;
        yield {
          name: path.relative(root, file).split(path.sep).join('/'),
          size: info.size,
          modifiedAt: info.mtime,
        };
      }
    },
    delete: (name) => rm(full(name), { force: true }),
    close: () => {},
  };
}

export interface BucketLocationOptions {
  bucket: string;
  prefix: string;
  endpoint?: string | undefined;
  region: string;
  forcePathStyle: boolean;
  /** Where a file is encrypted before it is sent (its size and checksum go with the upload). */
  spoolDir?: string;
}

/** The size of one part of a large file's upload: S3's parts are 5 MiB at least, all but the last. */
export const PART_BYTES = 8 * 1024 * 1024;

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/**
 * An S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Google Cloud Storage's XML API), through the AWS SDK's
 * standard credential chain like the invoice store. Each file is encrypted into a local spool file first, then
 * sent in one PutObject with its SHA-256, which the bucket checks: an object appears whole or not at all. A
 * file larger than a part (a table or a manifest of a large portal) goes up in parts, each with its own SHA-256,
 * completed only when every part arrived, and aborted otherwise: servers cap one request's body (a single
 * PutObject at 5 GiB on AWS, far less on some S3-compatible servers), not an upload's.
 */
export function bucketLocation(options: BucketLocationOptions): BackupLocation {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const { bucket } = options;
  const keyPrefix = options.prefix ? `${options.prefix}/` : '';
  const spoolDir = options.spoolDir ?? path.join(os.tmpdir(), 'portal-backup-spool');
  const sha256Base64 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');
  const putInParts = async (
    name: string,
    size: number,
    readPart: (start: number, length: number) => Promise<Buffer>,
  ) => {
    const Key = `${keyPrefix}${name}`;
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({
        Bucket: bucket,
        Key,
        ContentType: 'application/octet-stream',
        ChecksumAlgorithm: 'SHA256',
      }),
    );
    try {
      const parts: { PartNumber: number; ETag: string | undefined; ChecksumSHA256: string }[] = [];
      for (let start = 0, PartNumber = 1; start < size; start += PART_BYTES, PartNumber += 1) {
        const body = await readPart(start, Math.min(PART_BYTES, size - start));
        const ChecksumSHA256 = sha256Base64(body);
        const { ETag } = await client.send(
          new UploadPartCommand({ Bucket: bucket, Key, UploadId, PartNumber, Body: body, ChecksumSHA256 }),
        );
        parts.push({ PartNumber, ETag, ChecksumSHA256 });
      }
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket: bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      // Parts of an upload never completed are kept (and billed) by the bucket until aborted.
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId })).catch(() => {});
      throw error;
    }
  };
  const putFile = async (name: string, file: string, sealed: SealedDigest) => {
    if (sealed.size <= PART_BYTES) return void (await put(name, createReadStream(file), sealed.size, sealed.sha256));
    const handle = await open(file);
    try {
      await putInParts(name, sealed.size, async (start, length) => {
        const part = Buffer.alloc(length);
        const { bytesRead } = await handle.read(part, 0, length, start);
        if (bytesRead !== length) throw new Error(`${file} ended at ${start + bytesRead} of ${sealed.size} bytes`);
        return part;
      });
    } finally {
      await handle.close();
    }
  };
  const put = (name: string, body: Buffer | Readable, size: number, sha256: string) =>
    client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `${keyPrefix}${name}`,
        Body: body,
        ContentLength: size,
        ContentType: 'application/octet-stream',
        ChecksumSHA256: Buffer.from(sha256, 'hex').toString('base64'),
      }),
    );
  const get = async (name: string) => {
    try {
      return await client.send(new GetObjectCommand({ Bucket: bucket, Key: `${keyPrefix}${name}` }));
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  };
  return {
    description: `s3://${bucket}/${options.prefix}`,
    prepare: () => mkdir(spoolDir, { recursive: true, mode: PRIVATE_DIR_MODE }).then(() => undefined),
    async writeSealed(name, plaintext, recipients) {
      const spooled = path.join(spoolDir, `${randomUUID()}.age`);
      try {
        const sealed = await writeSealed(spooled, plaintext, recipients);
        await putFile(name, spooled, sealed);
        return sealed;
      } finally {
        await rm(spooled, { force: true });
      }
    },
    async writeSmall(name, bytes) {
      const buffer = Buffer.from(bytes);
      if (buffer.length > PART_BYTES)
        return putInParts(name, buffer.length, async (start, length) => buffer.subarray(start, start + length));
      await put(name, buffer, buffer.length, createHash('sha256').update(buffer).digest('hex'));
    },
    async readSmall(name, maxBytes) {
      const object = await get(name);
      if (!object) return undefined;
      if ((object.ContentLength ?? 0) > maxBytes) {
        (object.Body as Readable).destroy();
        throw new LocationTooLargeError(`${name} is ${object.ContentLength} bytes`);
      }
      return Buffer.from(await object.Body!.transformToByteArray());
    },
    async openRead(name) {
      return (await get(name))?.Body as Readable | undefined;
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: `${keyPrefix}${prefix}`,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        for (const object of page.Contents ?? []) {
          yield {
            name: (object.Key ?? '').slice(keyPrefix.length),
            size: object.Size ?? 0,
            modifiedAt: object.LastModified ?? new Date(0),
          };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async delete(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${keyPrefix}${name}` }));
    },
    close: () => client.destroy(),
  };
}

/**
 * The location a command names: `s3://bucket/prefix` (with BACKUP_STORE_ENDPOINT, BACKUP_STORE_REGION and
 * BACKUP_STORE_PATH_STYLE, like the invoice store's INVOICE_STORE_*), or a folder.
 */
export function openBackupLocation(target: string, env: NodeJS.ProcessEnv = process.env): BackupLocation {
  if (!target.startsWith('s3://')) return folderLocation(path.resolve(target));
  const parsed = parseS3Url(target);
  if (!parsed) {
    throw new ConfigError([
      `${target} is not a bucket a backup can go to: s3://<bucket>/<prefix> (prefix: letters, digits, . _ - and /)`,
    ]);
  }
  const pathStyle = (env.BACKUP_STORE_PATH_STYLE ?? 'false').trim();
  if (!['true', 'false', ''].includes(pathStyle))
    throw new ConfigError(['BACKUP_STORE_PATH_STYLE must be true or false']);
  return bucketLocation({
    ...parsed,
    endpoint: env.BACKUP_STORE_ENDPOINT?.trim() || undefined,
    region: env.BACKUP_STORE_REGION?.trim() || env.AWS_REGION?.trim() || 'us-east-1',
    forcePathStyle: pathStyle === 'true',
    ...(env.BACKUP_SPOOL_DIR?.trim() ? { spoolDir: env.BACKUP_SPOOL_DIR.trim() } : {}),
  });
}

/** A string is a folder; anything else a location already opened. */
export const locationOf = (target: BackupLocation | string) =>
  typeof target === 'string' ? folderLocation(target) : target;
