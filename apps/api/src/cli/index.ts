/**
 * `npm run portal -- <group> <command> ...`: operator commands that share the server's configuration.
 * Each group lives in its own module and exports `run(args)` returning an exit code.
 */
import { ConfigError } from '../config.ts';
import { SchemaBehindError } from '../db/client.ts';
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import { USAGE as STORAGE_USAGE } from './storage-usage.ts';

const USAGE = `Usage: npm run portal -- <command>

  users add <email> [--admin --operator <name>] [--take-over]
                                     allow an address in (creates its sign-in account; --take-over deletes
                                     an account of the address the portal did not make)
  users list                         print the allowed addresses
  users remove <email>               remove an address and its sign-in account
  users admin <email> --on|--off --operator <name>
                                     make an address an administrator, or stop it being one
  users enrollment-code <email> --operator <name>
                                     a one-time code for an administrator's first passkey (go-live)
  users cleanups                     finish removals whose sign-in account is not deleted yet
  users reset-passkeys <email> --operator <name>
                                     remove an administrator's passkeys and sessions; prints a new code
  users end-sessions <email>         sign someone out on every device
  invoices import <file.pdf> --parcel-code <code>
  invoices import-dir <dir>          import every <parcel code>.pdf in a folder
${STORAGE_USAGE}`;

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
    return group === undefined || group === '--help' ? 0 : 64;
  }
  try {
    return await (await load()).run(rest);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee .env.example for every variable.\n`);
      return 78;
    }
    if (error instanceof DatabaseInUseError || error instanceof SchemaBehindError) {
      process.stderr.write(`${error.message}\n`);
      return 75;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
