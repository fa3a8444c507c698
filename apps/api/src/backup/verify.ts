import type { DatabaseHandle } from '../db/client.ts';
import { BlobIntegrityError, type BlobStore, type ListedBlob } from '../blob-store/blob-store.ts';
import { forEachConcurrently } from '../lib/concurrently.ts';
import { hashStream } from './blob-copy.ts';
import { namedBlobs } from './database-copy.ts';
import { invoiceRetentionYears } from '../db/invoice-retention.ts';

export interface VerifyOptions {
  deleteOrphans?: boolean;
  /** Orphans younger than this are left alone: an upload stores its bytes moments before its row names them. */
  orphanMinAgeMs?: number;
  log?: (line: string) => void;
}

export interface VerifyReport {
  named: number;
  /** Named by a row, not in the store. */
  missing: string[];
  /** Named by a row, in the store, but its bytes hash to something else. */
  damaged: string[];
  /** In the store, named by no row. */
  orphans: ListedBlob[];
  deleted: string[];
  /** Orphans the invoice retention keeps: younger than INVOICE_RETENTION_YEARS (bytes a deleted row may have named). */
  retained: string[];
  seconds: number;
}

const CHECKS_AT_ONCE = 8;
export const DEFAULT_ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * `portal verify`: every blob a row names (BLOB_REFERENCES) is in the store and its bytes hash to its name;
 * and which stored blobs no row names (orphans: an upload whose row was never written, a crash, a restore
 * drill). With deleteOrphans, orphans older than orphanMinAgeMs are deleted, each after checking once more
 * that still no row names it.
 */
export async function runVerify(
  sources: { database: DatabaseHandle; blobStore: BlobStore },
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const names = await namedBlobs(sources.database.db);
  const stored = new Map<string, ListedBlob>();
  for await (const blob of sources.blobStore.list()) stored.set(blob.sha256, blob);

  const missing: string[] = [];
  const damaged: string[] = [];
  await forEachConcurrently(names, CHECKS_AT_ONCE, async (sha256) => {
    if (!stored.has(sha256)) return void missing.push(sha256);
    const blob = await sources.blobStore.open(sha256);
    if (!blob) return void missing.push(sha256);
    try {
      const read = await hashStream(blob.stream);
      if (read.sha256 !== sha256) damaged.push(sha256);
    } catch (error) {
      if (!(error instanceof BlobIntegrityError)) throw error;
      damaged.push(sha256);
    }
  });
  const named = new Set(names);
  const orphans = [...stored.values()].filter((blob) => !named.has(blob.sha256));
  for (const sha256 of missing.sort()) log(`missing: ${sha256} is named by a row but not in the store`);
  for (const sha256 of damaged.sort()) log(`damaged: ${sha256} is in the store, but its bytes do not hash to its name`);
  for (const orphan of orphans)
    log(`orphan: ${orphan.sha256} (${orphan.size} bytes, ${orphan.modifiedAt.toISOString()})`);

  const deleted: string[] = [];
  const retained: string[] = [];
  if (options.deleteOrphans && orphans.length) {
    const minAge = options.orphanMinAgeMs ?? DEFAULT_ORPHAN_MIN_AGE_MS;
    // Under the invoice retention no invoice's bytes are deleted before their time, named by a row or not:
    // an orphan may be the file of a version someone removed behind the portal's back.
    const years = await invoiceRetentionYears(sources.database.db);
    const keptSince = new Date();
    if (years) keptSince.setUTCFullYear(keptSince.getUTCFullYear() - years);
    const old = orphans.filter((orphan) => {
      if (Date.now() - orphan.modifiedAt.getTime() < minAge) return false;
      if (years && orphan.modifiedAt > keptSince) return void retained.push(orphan.sha256);
      return true;
    });
    // Read again just before deleting: a row written since the first read names its blob now.
    const namedNow = new Set(await namedBlobs(sources.database.db));
    for (const orphan of old) {
      if (namedNow.has(orphan.sha256)) continue;
      await sources.blobStore.delete(orphan.sha256);
      deleted.push(orphan.sha256);
    }
    log(
      `deleted ${deleted.length} orphans (${orphans.length - deleted.length - retained.length} younger than ${minAge / 60000} minutes or named again kept${years ? `, ${retained.length} kept by INVOICE_RETENTION_YEARS=${years}` : ''})`,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  log(
    `verified ${names.length} named blobs in ${sources.blobStore.description}: ${missing.length} missing, ${damaged.length} damaged, ${orphans.length} orphans (${seconds.toFixed(1)} s)`,
  );
  return { named: names.length, missing, damaged, orphans, deleted, retained, seconds };
}
