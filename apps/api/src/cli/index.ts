/**
 * `npm run portal -- <group> <command> ...`: operator commands that share the server's configuration.
 * Each group lives in its own module and exports `run(args)` returning an exit code from cli-io.ts's table;
 * every usage line is in usage.ts.
 */
import { ConfigError } from '../config.ts';
import { SchemaBehindError } from '../db/client.ts';
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import { EXIT } from './cli-io.ts';
import { USAGE } from './usage.ts';

const groups: Record<string, () => Promise<{ run(args: string[]): Promise<number> }>> = {
  users: () => import('./users.ts'),
  invoices: () => import('./invoices.ts'),
  migrate: async () => ({ run: (await import('./storage.ts')).run('migrate') }),
  backup: async () => ({ run: (await import('./storage.ts')).run('backup') }),
  restore: async () => ({ run: (await import('./storage.ts')).run('restore') }),
  verify: async () => ({ run: (await import('./storage.ts')).run('verify') }),
  'backup-keys': async () => ({ run: (await import('./storage.ts')).run('backup-keys') }),
};

async function main(argv: string[]): Promise<number> {
  const [group, ...rest] = argv;
  const load = group ? groups[group] : undefined;
  if (!load) {
    process.stderr.write(USAGE);
    return group === undefined || group === '--help' ? EXIT.ok : EXIT.usage;
  }
  try {
    return await (await load()).run(rest);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee .env.example for every variable.\n`);
      return EXIT.config;
    }
    if (error instanceof DatabaseInUseError || error instanceof SchemaBehindError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.tempFail;
    }
    throw error;
  }
}

// `npm run portal` runs this as apps/api's `cli` script, in apps/api; the files and folders a command names
// are relative to the checkout's root, where the docs' commands are typed and where npm started that script
// (its INIT_CWD). The compiled CLI (`node apps/api/dist/cli.js`) stays where it was started.
if (process.env.npm_lifecycle_event === 'cli' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
process.exitCode = await main(process.argv.slice(2));
