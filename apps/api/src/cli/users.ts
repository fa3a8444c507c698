/** `npm run portal -- users ...`: the same add, remove and role change as the admin screen, for operators and scripts. */
import os from 'node:os';
import { emailSchema } from '@portal/contract';
import { IdentityProviderUnavailableError } from '../identity/identity-provider.ts';
import { DomainError } from '../domain-error.ts';
import { loadConfig } from '../config.ts';
import { withDomain, type Domain } from '../domain.ts';
import type { UserRow } from '../users/repository.ts';

const USAGE = `Usage:
  npm run portal -- users add <email> [--admin]   allow an address in (creates its sign-in account, no password)
  npm run portal -- users list                    print every allowed address and its status
  npm run portal -- users remove <email>          remove an address and delete its sign-in account
  npm run portal -- users admin <email> --on|--off make an address an administrator, or stop it being one
`;

/** sysexits(3) codes, so scripts can tell a refusal from a typo or an outage. */
export const EXIT = { ok: 0, refused: 1, usage: 64, unavailable: 69, software: 70 } as const;

export type UsersCommand =
  | { name: 'add'; email: string; admin: boolean }
  | { name: 'list' }
  | { name: 'remove'; email: string }
  | { name: 'admin'; email: string; admin: boolean };

const FLAGS: Record<string, string[]> = { add: ['--admin'], admin: ['--on', '--off'] };

export interface Io {
  out(text: string): void;
  err(text: string): void;
}
const processIo: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

export function parseUsersArgs(args: string[]): UsersCommand | { error: string } {
  const [name, ...rest] = args;
  const flags = rest.filter((arg) => arg.startsWith('--'));
  const positional = rest.filter((arg) => !arg.startsWith('--'));
  const allowedFlags = FLAGS[name ?? ''] ?? [];
  const unknownFlag = flags.find((flag) => !allowedFlags.includes(flag));
  if (unknownFlag) return { error: `Unknown option ${unknownFlag} for "users ${name ?? ''}".` };
  if (name === 'list') return positional.length === 0 ? { name } : { error: '"users list" takes no arguments.' };
  if (name !== 'add' && name !== 'remove' && name !== 'admin')
    return { error: name ? `Unknown command "users ${name}".` : 'Missing a command.' };
  if (positional.length !== 1) return { error: `"users ${name}" takes exactly one e-mail address.` };
  const email = emailSchema.safeParse(positional[0]);
  if (!email.success) return { error: `"${positional[0]}" is not a valid e-mail address.` };
  if (name === 'admin') {
    if (flags.length !== 1) return { error: '"users admin" takes exactly one of --on or --off.' };
    return { name, email: email.data, admin: flags[0] === '--on' };
  }
  return name === 'add' ? { name, email: email.data, admin: flags.includes('--admin') } : { name, email: email.data };
}

const describeRow = (row: UserRow) =>
  [row.admin ? 'admin' : 'user', row.activated ? 'activated' : 'invited', row.registered ? null : 'not registered']
    .filter(Boolean)
    .join(', ');

export async function runUsersCommand(
  command: UsersCommand,
  domain: Pick<Domain, 'users' | 'userAdmin'>,
  io: Io = processIo,
) {
  const { users, userAdmin } = domain;
  // The audit log names the operator's login, since the CLI has no portal account.
  const actor = `cli:${os.userInfo().username}`;
  try {
    if (command.name === 'list') {
      const { items } = await users.list();
      const width = Math.max(5, ...items.map((row) => row.email.length));
      for (const row of items) io.out(`${row.email.padEnd(width)}  ${describeRow(row)}\n`);
      io.err(`${items.length} allowed ${items.length === 1 ? 'user' : 'users'}\n`);
    } else if (command.name === 'add') {
      await userAdmin.addUser({ email: command.email, admin: command.admin, actor });
      // The screen confirms with a second call (register); the CLI has no second step to wait for.
      await userAdmin.registerUser(command.email);
      io.out(
        `Added ${command.email}${command.admin ? ' as an administrator' : ''}. They set a password with "Forgot Password" on the login screen.\n`,
      );
    } else if (command.name === 'admin') {
      await userAdmin.setAdmin({ email: command.email, admin: command.admin, actor });
      io.out(`${command.email} is ${command.admin ? 'now' : 'no longer'} an administrator.\n`);
    } else {
      await userAdmin.removeUser({ email: command.email, actor });
      io.out(`Removed ${command.email} and deleted its sign-in account.\n`);
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DomainError) {
      io.err(`${error.message}\n`);
      return EXIT.refused;
    }
    if (error instanceof IdentityProviderUnavailableError) {
      io.err(
        `The identity provider could not be reached (${error.message}); nothing was changed. Check the FIREBASE_* settings, or that the Auth emulator is running.\n`,
      );
      return EXIT.unavailable;
    }
    io.err(`users ${command.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.software;
  }
}

export async function run(args: string[]): Promise<number> {
  const command = parseUsersArgs(args);
  if ('error' in command) {
    process.stderr.write(`${command.error}\n\n${USAGE}`);
    return EXIT.usage;
  }
  // What the user admin logs (an account left behind, say) is a warning the operator should read.
  const log = {
    error: (_details: object, message: string) => processIo.err(`warning: ${message}\n`),
    warn: (_details: object, message: string) => processIo.err(`warning: ${message}\n`),
  };
  return withDomain(loadConfig(), (domain) => runUsersCommand(command, domain), { log });
}
