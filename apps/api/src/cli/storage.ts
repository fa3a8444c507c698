/**
 * `portal migrate`, `portal backup <dir>`, `portal restore <dir>`, `portal verify [--delete-orphans]`: the
 * database and the invoice store looked after together, with the server's configuration.
 */
import { parseArgs } from 'node:util';
import { BackupRefusedError, runBackup } from '../backup/backup.ts';
import { BackupFormatError } from '../backup/manifest.ts';
import { RestoreRefusedError, runRestore } from '../backup/restore.ts';
import { DEFAULT_ORPHAN_MIN_AGE_MS, runVerify } from '../backup/verify.ts';
import { loadConfig, type Config } from '../config.ts';
import { databaseTargetFor, migrateDatabase } from '../db/client.ts';
import { openInfrastructure, type Infrastructure } from '../infrastructure.ts';
import { USAGE } from './storage-usage.ts';

export interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

const stdio: CliOutput = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

type Sources = Pick<Infrastructure, 'database' | 'blobStore'>;

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

/** Each command: 0 done, 1 done with problems found (or refused), 64 usage. */
export async function runCommand(
  command: 'migrate' | 'backup' | 'restore' | 'verify',
  args: string[],
  output: CliOutput = stdio,
  config: Config = loadConfig(),
  // Tests hand in the database and store they opened; the command then neither opens nor closes them.
  sources?: Sources,
): Promise<number> {
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
    output.err(`${(error as Error).message}\nUsage:\n${USAGE}`);
    return 64;
  }
  const [dir, ...extra] = parsed.positionals;
  const needsDir = command === 'backup' || command === 'restore';
  const minAge = parsed.values['orphan-min-age-minutes'];
  const usageError =
    (needsDir ? !dir || extra.length > 0 : parsed.positionals.length > 0) ||
    (command !== 'verify' && (parsed.values['delete-orphans'] || minAge !== undefined)) ||
    (minAge !== undefined && !/^\d+$/.test(minAge));
  if (usageError) {
    output.err(`Usage:\n${USAGE}`);
    return 64;
  }
  const run = <T>(migrate: boolean | undefined, work: (sources: Sources) => Promise<T>) =>
    sources ? work(sources) : withInfrastructure(config, migrate, work);

  try {
    switch (command) {
      case 'migrate': {
        const { before, after } = await migrateDatabase(databaseTargetFor(config));
        output.out(
          before.applied === after.applied
            ? `the database schema is current (${after.applied} migrations applied)`
            : `applied ${after.applied - before.applied} migrations (${before.applied} → ${after.applied})`,
        );
        return 0;
      }
      case 'backup': {
        const { manifest, problems } = await run(undefined, (from) => runBackup(from, dir!, output.out));
        output.out(
          `backup written to ${dir} (${manifest.blobs.count} invoice files, ${manifest.tables.length} tables)`,
        );
        if (problems.length) output.err(`${problems.length} problems: run \`portal verify\` to see the store's state`);
        return problems.length ? 1 : 0;
      }
      case 'restore': {
        const { seconds } = await run(true, (into) => runRestore(into, dir!, output.out));
        output.out(`restored from ${dir} in ${seconds.toFixed(1)} s; now checking it:`);
        const report = await run(true, (into) => runVerify(into, { log: output.out }));
        return report.missing.length || report.damaged.length ? 1 : 0;
      }
      case 'verify': {
        const report = await run(undefined, (from) =>
          runVerify(from, {
            log: output.out,
            deleteOrphans: parsed.values['delete-orphans'] ?? false,
            orphanMinAgeMs: minAge === undefined ? DEFAULT_ORPHAN_MIN_AGE_MS : Number(minAge) * 60_000,
          }),
        );
        return report.missing.length || report.damaged.length ? 1 : 0;
      }
    }
  } catch (error) {
    if (
      error instanceof BackupRefusedError ||
      error instanceof RestoreRefusedError ||
      error instanceof BackupFormatError
    ) {
      output.err(error.message);
      return 1;
    }
    throw error;
  }
}

export const run = (command: 'migrate' | 'backup' | 'restore' | 'verify') => (args: string[]) =>
  runCommand(command, args);
