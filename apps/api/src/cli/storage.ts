/**
 * `portal migrate`, `portal backup <dir>`, `portal restore <dir>`, `portal verify [<dir>] [--delete-orphans]`,
 * `portal backup-keys <dir>`: the database and the invoice store looked after together, with the server's
 * configuration and the backup keys (backup/keys.ts).
 */
import { parseArgs } from 'node:util';
import { BackupRefusedError, runBackup } from '../backup/backup.ts';
import { checkBackup } from '../backup/backup-check.ts';
import { backupReadKeys, backupWriteKeys, KEY_FILES, KeyFolderInUseError, writeBackupKeys } from '../backup/keys.ts';
import { BackupFormatError, BackupTamperedError } from '../backup/manifest.ts';
import { RestoreRefusedError, runRestore } from '../backup/restore.ts';
import { DEFAULT_ORPHAN_MIN_AGE_MS, runVerify } from '../backup/verify.ts';
import { loadConfig, type Config } from '../config.ts';
import { databaseTargetFor, migrateDatabase } from '../db/client.ts';
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
      },
    });
  } catch (error) {
    output.err(`${(error as Error).message}\n${usageOf(STORAGE_USAGE)}`);
    return EXIT.usage;
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
  const usageError =
    extra.length > 0 ||
    (dirArgument === 'required' && !dir) ||
    (dirArgument === 'none' && dir !== undefined) ||
    (!liveVerify && (parsed.values['delete-orphans'] || minAge !== undefined)) ||
    (minAge !== undefined && !/^\d+$/.test(minAge));
  if (usageError) {
    output.err(usageOf(STORAGE_USAGE));
    return EXIT.usage;
  }
  const run = <T>(migrate: boolean | undefined, work: (sources: Sources) => Promise<T>) =>
    sources ? work(sources) : withInfrastructure(config(), migrate, work);

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
        // The keys before the database: a key problem is reported before anything is read or written.
        const keys = backupWriteKeys(env);
        const { manifest, problems } = await run(undefined, (from) => runBackup(from, dir!, keys, output.out));
        output.out(
          `backup written to ${dir} (${manifest.blobs.count} invoice files, ${manifest.tables.length} tables), encrypted and signed`,
        );
        if (problems.length) output.err(`${problems.length} problems: run \`portal verify\` to see the store's state`);
        return problems.length ? EXIT.refused : EXIT.ok;
      }
      case 'restore': {
        const keys = backupReadKeys(env);
        const { seconds } = await run(true, (into) => runRestore(into, dir!, keys, output.out));
        output.out(`restored from ${dir} in ${seconds.toFixed(1)} s; now checking it:`);
        const report = await run(true, (into) => runVerify(into, { log: output.out }));
        return report.missing.length || report.damaged.length ? EXIT.refused : EXIT.ok;
      }
      case 'verify': {
        if (dir) {
          const report = await checkBackup(dir, backupReadKeys(env), output.out);
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
    if (error instanceof BackupTamperedError || error instanceof BackupFormatError) {
      output.err(`Refused: ${error.message}${command === 'restore' ? ' Nothing was restored.' : ''}`);
      return EXIT.refused;
    }
    if (
      error instanceof BackupRefusedError ||
      error instanceof RestoreRefusedError ||
      error instanceof KeyFolderInUseError
    ) {
      output.err(error.message);
      return EXIT.refused;
    }
    throw error;
  }
}

export const run = (command: StorageCommand) => (args: string[]) => runCommand(command, args);
