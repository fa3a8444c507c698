/**
 * `portal migrate`, `portal backup [<location>]`, `portal backup list|prune [<location>]`, `portal restore
 * <location>`, `portal verify [<location>] [--delete-orphans]`, `portal backup-keys <dir>`: the database and the
 * invoice store looked after together, with the server's configuration and the backup keys (backup/keys.ts).
 * A location is a folder or s3://bucket/prefix (backup/location.ts); BACKUP_TARGET names it by default.
 */
import { parseArgs } from 'node:util';
import { BackupRefusedError, runBackup } from '../backup/backup.ts';
import { checkBackup } from '../backup/backup-check.ts';
import {
  DEFAULT_RETENTION,
  listBackups,
  NoBackupError,
  pruneBackups,
  PruneRefusedError,
  retained,
  type RetentionPolicy,
} from '../backup/catalogue.ts';
import {
  backupReadKeys,
  backupVerifyKey,
  backupWriteKeys,
  KEY_FILES,
  KeyFolderInUseError,
  writeBackupKeys,
} from '../backup/keys.ts';
import { openBackupLocation, type BackupLocation } from '../backup/location.ts';
import { BackupFormatError, BackupTamperedError } from '../backup/manifest.ts';
import { RestoreRefusedError, runRestore } from '../backup/restore.ts';
import { DEFAULT_ORPHAN_MIN_AGE_MS, runVerify } from '../backup/verify.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { databaseTargetFor, forMaintenance, migrateDatabase } from '../db/client.ts';
import { openInfrastructure, type Infrastructure } from '../infrastructure.ts';
import { EXIT, stdio, type CliOutput } from './cli-io.ts';
import { STORAGE_USAGE, usageOf } from './usage.ts';

type Sources = Pick<Infrastructure, 'database' | 'blobStore'>;
export type StorageCommand = 'migrate' | 'backup' | 'restore' | 'verify' | 'backup-keys';

async function withInfrastructure<T>(
  config: Config,
  migrate: boolean | undefined,
  run: (sources: Sources) => Promise<T>,
) {
  const infrastructure = await openInfrastructure(config, migrate === undefined ? {} : { migrate });
  try {
    return await run(infrastructure);
  } finally {
    await infrastructure.close();
  }
}

export interface CommandContext {
  output?: CliOutput;
  /** Where the backup keys are read from (BACKUP_* and BACKUP_*_FILE). */
  env?: NodeJS.ProcessEnv;
  config?: () => Config;
  /** Tests hand in the database and store they opened; the command then neither opens nor closes them. */
  sources?: Sources;
}

/** Each command: ok when done, refused when done with problems found (or refused), usage (cli-io.ts). */
export async function runCommand(command: StorageCommand, args: string[], context: CommandContext = {}) {
  const { output = stdio, env = process.env, config = () => loadConfig(), sources } = context;
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'delete-orphans': { type: 'boolean' },
        'orphan-min-age-minutes': { type: 'string' },
        backup: { type: 'string' },
        'keep-daily': { type: 'string' },
        'keep-monthly': { type: 'string' },
        'dry-run': { type: 'boolean' },
        prune: { type: 'boolean' },
      },
    });
  } catch (error) {
    output.err(`${(error as Error).message}\n${usageOf(STORAGE_USAGE)}`);
    return EXIT.usage;
  }
  if (command === 'backup' && ['list', 'prune'].includes(parsed.positionals[0] ?? '')) {
    return catalogueCommand(parsed.positionals[0] as 'list' | 'prune', parsed, output, env);
  }
  if (
    command === 'backup' &&
    parsed.positionals.length === 0 &&
    env.BACKUP_TARGET?.trim() &&
    parsed.values.backup === undefined
  ) {
    parsed.positionals.push(env.BACKUP_TARGET.trim());
  }
  const [dir, ...extra] = parsed.positionals;
  const dirArgument = {
    migrate: 'none',
    backup: 'required',
    restore: 'required',
    'backup-keys': 'required',
    verify: 'optional',
  }[command];
  const minAge = parsed.values['orphan-min-age-minutes'];
  const liveVerify = command === 'verify' && !dir;
  const retentionFlags =
    parsed.values['keep-daily'] !== undefined ||
    parsed.values['keep-monthly'] !== undefined ||
    parsed.values.prune ||
    parsed.values['dry-run'];
  const usageError =
    extra.length > 0 ||
    (parsed.values.backup !== undefined && command !== 'restore' && !(command === 'verify' && dir)) ||
    (retentionFlags && command !== 'backup') ||
    parsed.values['dry-run'] ||
    (dirArgument === 'required' && !dir) ||
    (dirArgument === 'none' && dir !== undefined) ||
    (!liveVerify && (parsed.values['delete-orphans'] || minAge !== undefined)) ||
    (minAge !== undefined && !/^\d+$/.test(minAge));
  if (usageError) {
    output.err(usageOf(STORAGE_USAGE));
    return EXIT.usage;
  }
  const run = <T>(migrate: boolean | undefined, work: (sources: Sources) => Promise<T>) =>
    sources ? work(sources) : withInfrastructure(forMaintenance(config()), migrate, work);

  try {
    switch (command) {
      case 'migrate': {
        const { before, after } = await migrateDatabase(databaseTargetFor(config()));
        output.out(
          before.applied === after.applied
            ? `the database schema is current (${after.applied} migrations applied)`
            : `applied ${after.applied - before.applied} migrations (${before.applied} → ${after.applied})`,
        );
        return EXIT.ok;
      }
      case 'backup-keys': {
        const paths = await writeBackupKeys(dir!);
        output.out(`new backup keys in ${dir} (owner-only). Where each belongs:`);
        for (const [name, { variable, on }] of Object.entries(KEY_FILES)) {
          output.out(`  ${variable}=${paths[name as keyof typeof KEY_FILES]}   (the ${on} machine)`);
        }
        output.out(
          'Keep a copy of backup-identity.txt offline: without it no backup made with these keys can be read.',
        );
        return EXIT.ok;
      }
      case 'backup': {
        // The keys and the policy before the database: a problem is reported before anything is read or written.
        const keys = backupWriteKeys(env);
        const policy = parsed.values.prune ? retentionPolicy(parsed.values, env) : undefined;
        const { manifest, problems } = await withLocation(dir!, env, (location) =>
          run(undefined, (from) => runBackup(from, location, keys, { log: output.out })),
        );
        output.out(
          `backup ${manifest.id} written to ${dir} (${manifest.blobs.count} invoice files, ${manifest.blobs.copied} of them copied now; ${manifest.tables.length} tables), encrypted and signed`,
        );
        if (problems.length) output.err(`${problems.length} problems: run \`portal verify\` to see the store's state`);
        if (policy) {
          const pruned = await withLocation(dir!, env, (location) =>
            pruneBackups(location, backupVerifyKey(env), {
              policy,
              retentionYears: retentionYearsOf(env),
              log: output.out,
            }),
          );
          if (pruned.failures.length) return EXIT.refused;
        }
        return problems.length ? EXIT.refused : EXIT.ok;
      }
      case 'restore': {
        const keys = backupReadKeys(env);
        const { seconds, manifest } = await withLocation(dir!, env, (location) =>
          run(true, (into) => runRestore(into, location, keys, { backup: parsed.values.backup, log: output.out })),
        );
        output.out(`restored backup ${manifest.id} from ${dir} in ${seconds.toFixed(1)} s; now checking it:`);
        const report = await run(true, (into) => runVerify(into, { log: output.out }));
        return report.missing.length || report.damaged.length ? EXIT.refused : EXIT.ok;
      }
      case 'verify': {
        if (dir) {
          const keys = backupReadKeys(env);
          const report = await withLocation(dir, env, (location) =>
            checkBackup(location, keys, { backup: parsed.values.backup, log: output.out }),
          );
          return report.problems.length ? EXIT.refused : EXIT.ok;
        }
        const report = await run(undefined, (from) =>
          runVerify(from, {
            log: output.out,
            deleteOrphans: parsed.values['delete-orphans'] ?? false,
            orphanMinAgeMs: minAge === undefined ? DEFAULT_ORPHAN_MIN_AGE_MS : Number(minAge) * 60_000,
          }),
        );
        return report.missing.length || report.damaged.length ? EXIT.refused : EXIT.ok;
      }
    }
  } catch (error) {
    return refusal(command, error, output);
  }
}

/** A refusal the operator can act on, as one line and exit 1; anything else is a fault and is thrown. */
function refusal(command: StorageCommand, error: unknown, output: CliOutput): number {
  if (error instanceof BackupTamperedError || error instanceof BackupFormatError) {
    output.err(`Refused: ${error.message}${command === 'restore' ? ' Nothing was restored.' : ''}`);
    return EXIT.refused;
  }
  if (
    error instanceof BackupRefusedError ||
    error instanceof RestoreRefusedError ||
    error instanceof KeyFolderInUseError ||
    error instanceof NoBackupError ||
    error instanceof PruneRefusedError
  ) {
    output.err(error.message);
    return EXIT.refused;
  }
  throw error;
}

async function withLocation<T>(target: string, env: NodeJS.ProcessEnv, work: (location: BackupLocation) => Promise<T>) {
  const location = openBackupLocation(target, env);
  try {
    return await work(location);
  } finally {
    location.close();
  }
}

const COUNT = /^\d{1,4}$/;

/** --keep-daily/--keep-monthly, else BACKUP_KEEP_DAILY/BACKUP_KEEP_MONTHLY, else 7 and 12. */
function retentionPolicy(values: Record<string, unknown>, env: NodeJS.ProcessEnv): RetentionPolicy {
  const problems: string[] = [];
  const read = (flag: string, variable: string, fallback: number) => {
    const text = (values[flag] as string | undefined) ?? (env[variable]?.trim() || undefined);
    if (text === undefined) return fallback;
    if (!COUNT.test(text))
      problems.push(
        `${values[flag] === undefined ? variable : `--${flag}`} must be a whole number of backups (0 or more)`,
      );
    return Number(text);
  };
  const policy = {
    keepDaily: read('keep-daily', 'BACKUP_KEEP_DAILY', DEFAULT_RETENTION.keepDaily),
    keepMonthly: read('keep-monthly', 'BACKUP_KEEP_MONTHLY', DEFAULT_RETENTION.keepMonthly),
  };
  if (problems.length) throw new ConfigError(problems);
  return policy;
}

function retentionYearsOf(env: NodeJS.ProcessEnv): number | undefined {
  const text = env.INVOICE_RETENTION_YEARS?.trim();
  if (!text) return undefined;
  if (!/^\d{1,2}$/.test(text) || Number(text) < 1)
    throw new ConfigError(['INVOICE_RETENTION_YEARS must be a number of years (1 to 30)']);
  return Number(text);
}

/** `portal backup list [<location>]` and `portal backup prune [<location>] [--keep-daily N] [--keep-monthly M] [--dry-run]`. */
async function catalogueCommand(
  which: 'list' | 'prune',
  parsed: { positionals: string[]; values: Record<string, unknown> },
  output: CliOutput,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const [, given, ...extra] = parsed.positionals;
  const target = given ?? (env.BACKUP_TARGET?.trim() || undefined);
  const { values } = parsed;
  const wrongFlags =
    values['delete-orphans'] ||
    values['orphan-min-age-minutes'] !== undefined ||
    values.backup !== undefined ||
    values.prune ||
    (which === 'list' && values['dry-run']);
  if (!target || extra.length || wrongFlags) {
    output.err(usageOf(STORAGE_USAGE));
    return EXIT.usage;
  }
  try {
    const verifyKey = backupVerifyKey(env);
    const policy = retentionPolicy(values, env);
    return await withLocation(target, env, async (location) => {
      if (which === 'prune') {
        const report = await pruneBackups(location, verifyKey, {
          policy,
          retentionYears: retentionYearsOf(env),
          dryRun: Boolean(values['dry-run']),
          log: output.out,
        });
        return report.failures.length ? EXIT.refused : EXIT.ok;
      }
      const listed = await listBackups(location, verifyKey);
      const kept = retained(
        listed.flatMap((backup) => (backup.manifest ? [{ id: backup.id, createdAt: backup.manifest.createdAt }] : [])),
        policy,
      );
      output.out(
        `${location.description}: ${listed.length} backups (keeping ${policy.keepDaily} daily, ${policy.keepMonthly} monthly)`,
      );
      for (const backup of listed) {
        const { manifest } = backup;
        if (!manifest) {
          output.out(
            `${backup.id}  ${backup.complete ? `NOT BELIEVED: ${backup.problem}` : 'unfinished (no manifest)'}`,
          );
          continue;
        }
        const reasons = kept.get(backup.id);
        output.out(
          `${backup.id}  ${manifest.blobs.count} invoice files (${manifest.blobs.copied} copied by it), ${manifest.blobs.bytes} bytes, ${manifest.migrations.applied} migrations  ${reasons ? `kept: ${reasons.join(', ')}` : 'pruned next'}`,
        );
      }
      return EXIT.ok;
    });
  } catch (error) {
    return refusal('backup', error, output);
  }
}

export const run = (command: StorageCommand) => (args: string[]) => runCommand(command, args);
