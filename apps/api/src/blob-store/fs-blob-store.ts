import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ACCEL_BLOB_LOCATION,
  assertSha256Hex,
  isNotFound,
  isSha256Hex,
  verifying,
  type BlobStore,
  type StoredBlob,
} from './blob-store.ts';
import { fsyncDirectory, removeStalePartFiles, streamInto } from './local-files.ts';

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
    kind: 'folder',
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
