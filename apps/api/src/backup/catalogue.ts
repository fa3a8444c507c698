import type { KeyObject } from 'node:crypto';
import { blobKeyFile } from './blob-keys.ts';
import type { BackupLocation } from './location.ts';
import {
  BACKUP_ID,
  BACKUPS_DIR,
  BLOBS_DIR,
  MANIFEST_FILE,
  blobFile,
  keysetOf,
  readSignedManifest,
  type BackupManifest,
} from './manifest.ts';

export interface BackupFolder {
  id: string;
  /** It has its manifest: the run finished. */
  complete: boolean;
  files: string[];
  /** The newest of its files: when a run that did not finish last wrote. */
  lastWritten: Date;
}

/** Every backup folder of the location, oldest first, finished or not. */
export async function backupsIn(location: BackupLocation): Promise<BackupFolder[]> {
  const byId = new Map<string, BackupFolder>();
  for await (const file of location.list(`${BACKUPS_DIR}/`)) {
    const [, id, ...rest] = file.name.split('/');
    if (!id || !BACKUP_ID.test(id)) continue;
    const folder = byId.get(id) ?? { id, complete: false, files: [], lastWritten: new Date(0) };
    folder.files.push(file.name);
    if (rest.join('/') === MANIFEST_FILE) folder.complete = true;
    if (file.modifiedAt > folder.lastWritten) folder.lastWritten = file.modifiedAt;
    byId.set(id, folder);
  }
  return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export interface RetentionPolicy {
  /** The newest backup of each of the last N days that have one (UTC). */
  keepDaily: number;
  /** The newest backup of each of the last M months that have one (UTC). */
  keepMonthly: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { keepDaily: 7, keepMonthly: 12 };

/**
 * Which backups a policy keeps, and why: the newest always; then, going back from it, the newest of each day
 * until keepDaily days are kept, and the newest of each month until keepMonthly months are (as restic and
 * borg count). Input: finished backups with their creation time.
 */
export function retained(backups: { id: string; createdAt: string }[], policy: RetentionPolicy): Map<string, string[]> {
  const newestFirst = [...backups].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  const reasons = new Map<string, string[]>();
  const keep = (id: string, reason: string) => reasons.set(id, [...(reasons.get(id) ?? []), reason]);
  if (newestFirst[0]) keep(newestFirst[0].id, 'newest');
  const rule = (slice: number, count: number, name: string) => {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      if (seen.size >= count) break;
      const period = new Date(backup.createdAt).toISOString().slice(0, slice);
      if (seen.has(period)) continue;
      seen.add(period);
      keep(backup.id, `${name} ${period}`);
    }
  };
  rule(10, policy.keepDaily, 'daily');
  rule(7, policy.keepMonthly, 'monthly');
  return reasons;
}

export interface ListedBackup {
  id: string;
  complete: boolean;
  manifest?: BackupManifest;
  /** Why the manifest is not believed (signature, format): such a backup is neither restored nor pruned. */
  problem?: string;
}

/** Every backup of the location with its signed manifest read (oldest first). */
export async function listBackups(location: BackupLocation, verifyKey: KeyObject): Promise<ListedBackup[]> {
  const listed: ListedBackup[] = [];
  for (const folder of await backupsIn(location)) {
    if (!folder.complete) {
      listed.push({ id: folder.id, complete: false });
      continue;
    }
    try {
      listed.push({
        id: folder.id,
        complete: true,
        manifest: await readSignedManifest(location, folder.id, verifyKey),
      });
    } catch (error) {
      listed.push({ id: folder.id, complete: true, problem: (error as Error).message });
    }
  }
  return listed;
}

export interface PruneOptions {
  policy: RetentionPolicy;
  /** INVOICE_RETENTION_YEARS: a backup younger than this that is the last to hold an invoice file is kept. */
  retentionYears?: number | undefined;
  dryRun?: boolean;
  now?: Date;
  /** Unfinished runs and pool files named by no backup are left alone while younger than this (a run may be writing them). */
  graceMs?: number;
  log?: (line: string) => void;
}

export interface PruneReport {
  kept: { id: string; reasons: string[] }[];
  deleted: string[];
  /** Pool files no kept backup names, deleted (or, in a dry run, that would be). */
  blobsDeleted: number;
  /** Deletions the location refused (an Object Lock retention, a permission): left, and named. */
  failures: string[];
}

export class PruneRefusedError extends Error {}

export const DEFAULT_PRUNE_GRACE_MS = 24 * 60 * 60 * 1000;

const yearsBefore = (date: Date, years: number) => {
  const before = new Date(date);
  before.setUTCFullYear(before.getUTCFullYear() - years);
  return before;
};

/**
 * `portal backup prune`: deletes the backups the policy does not keep, then every pool file no kept backup
 * names. Refuses to start when any backup's manifest is not believed (a signature that does not verify): what
 * that backup needs cannot be known, so nothing is deleted. A blob a kept backup names is never deleted.
 */
export async function pruneBackups(
  location: BackupLocation,
  verifyKey: KeyObject,
  options: PruneOptions,
): Promise<PruneReport> {
  const log = options.log ?? (() => {});
  const now = options.now ?? new Date();
  const grace = options.graceMs ?? DEFAULT_PRUNE_GRACE_MS;
  const folders = await backupsIn(location);
  const listed = await listBackups(location, verifyKey);
  const unbelieved = listed.filter((backup) => backup.problem);
  if (unbelieved.length) {
    throw new PruneRefusedError(
      `Nothing was pruned: ${unbelieved.map((backup) => `backup ${backup.id}: ${backup.problem}`).join('; ')}`,
    );
  }
  const finished = listed.filter((backup) => backup.manifest) as (ListedBackup & { manifest: BackupManifest })[];
  const reasons = retained(
    finished.map((backup) => ({ id: backup.id, createdAt: backup.manifest.createdAt })),
    options.policy,
  );
  const pathsOf = (manifest: BackupManifest) => {
    const keyset = keysetOf(manifest.encryption.recipients);
    const runKeys = new Set(manifest.blobs.list.map((blob) => blobKeyFile(keyset, blob.copiedBy)));
    return [...manifest.blobs.list.map((blob) => blobFile(keyset, blob.sha256)), ...runKeys];
  };
  const needed = new Set<string>();
  for (const backup of finished)
    if (reasons.has(backup.id)) for (const file of pathsOf(backup.manifest)) needed.add(file);
  // The invoice retention: the last copy of an invoice file stays in the backups as long as the invoice must.
  if (options.retentionYears) {
    const since = yearsBefore(now, options.retentionYears);
    for (const backup of [...finished].reverse()) {
      if (reasons.has(backup.id) || new Date(backup.manifest.createdAt) < since) continue;
      if (pathsOf(backup.manifest).some((file) => !needed.has(file))) {
        reasons.set(backup.id, [`last to hold invoice files kept ${options.retentionYears} years`]);
        for (const file of pathsOf(backup.manifest)) needed.add(file);
      }
    }
  }
  const report: PruneReport = { kept: [], deleted: [], blobsDeleted: 0, failures: [] };
  const remove = async (name: string) => {
    if (options.dryRun) return true;
    try {
      await location.delete(name);
      return true;
    } catch (error) {
      report.failures.push(`${name}: ${(error as Error).message}`);
      return false;
    }
  };
  for (const folder of folders) {
    const reason = reasons.get(folder.id);
    if (reason) {
      report.kept.push({ id: folder.id, reasons: reason });
      continue;
    }
    if (!folder.complete && Date.now() - folder.lastWritten.getTime() < grace) {
      report.kept.push({ id: folder.id, reasons: ['unfinished, may still be running'] });
      continue;
    }
    // The manifest first: a backup half deleted is one without a manifest, never one whose manifest names missing files.
    const files = [...folder.files].sort(
      (a, b) => Number(b.endsWith(MANIFEST_FILE)) - Number(a.endsWith(MANIFEST_FILE)),
    );
    let all = true;
    for (const file of files) all = (await remove(file)) && all;
    if (all) report.deleted.push(folder.id);
    log(`${options.dryRun ? 'would delete' : all ? 'deleted' : 'could not fully delete'} backup ${folder.id}`);
  }
  for await (const file of location.list(`${BLOBS_DIR}/`)) {
    if (needed.has(file.name)) continue;
    // Files age by the clock they were written by, not by the policy's `now`.
    if (Date.now() - file.modifiedAt.getTime() < grace) continue;
    if (await remove(file.name)) report.blobsDeleted += 1;
  }
  for (const kept of report.kept) log(`kept backup ${kept.id}: ${kept.reasons.join(', ')}`);
  log(
    `${options.dryRun ? 'dry run: would delete' : 'deleted'} ${report.deleted.length} backups and ${report.blobsDeleted} invoice files no kept backup needs; kept ${report.kept.length} backups${report.failures.length ? `; ${report.failures.length} deletions refused by ${location.description}` : ''}`,
  );
  for (const failure of report.failures) log(`not deleted: ${failure}`);
  return report;
}

export class NoBackupError extends Error {}

/** The backup a command names, or the newest finished one of the location. */
export async function chooseBackup(location: BackupLocation, id: string | undefined): Promise<string> {
  if (id) return id;
  const newest = (await backupsIn(location)).filter((folder) => folder.complete).at(-1);
  if (!newest) throw new NoBackupError(`${location.description} holds no finished backup.`);
  return newest.id;
}
