/** `npm run portal -- users ...`: the same add, remove and role change as the admin screen, for operators and scripts. */
import os from 'node:os';
import { emailSchema } from '@portal/contract';
import { IdentityProviderUnavailableError } from '../identity/identity-provider.ts';
import { DomainError } from '../domain-error.ts';
import { loadConfig } from '../config.ts';
import { withDomain, type Domain } from '../domain.ts';
import type { UserRow } from '../users/repository.ts';

const USAGE = `Usage:
  npm run portal -- users add <email> [--admin --operator <name>] [--take-over]
                                                  allow an address in (creates its sign-in account, no password);
                                                  --take-over deletes a sign-in account the portal did not make;
                                                  --admin prints the new administrator's enrollment code
  npm run portal -- users list                    print every allowed address and its status
  npm run portal -- users remove <email>          remove an address and delete its sign-in account
  npm run portal -- users admin <email> --on|--off --operator <name>
                                                  make an address an administrator (printing their enrollment
                                                  code), or stop it being one
  npm run portal -- users enrollment-code <email> --operator <name>
                                                  a new one-time code for an administrator's first passkey
                                                  (the first administrator at go-live); valid 24 hours
  npm run portal -- users cleanups                finish removals whose sign-in account is not deleted yet
  npm run portal -- users reset-passkeys <email> --operator <name>
                                                  remove an administrator's passkeys, end their sessions, and
                                                  print the code they set up a new passkey with
  npm run portal -- users end-sessions <email>    sign someone out on every device

  --operator names the person running the command, for the audit log (any command that changes something
  takes it; those that change roles or passkeys require it).
`;

/** sysexits(3) codes, so scripts can tell a refusal from a typo or an outage. */
export const EXIT = { ok: 0, refused: 1, usage: 64, unavailable: 69, software: 70 } as const;

/** `operator`: who runs the command, as they said with --operator (undefined: not said). */
export type UsersCommand =
  | { name: 'add'; email: string; admin: boolean; takeOver: boolean; operator?: string | undefined }
  | { name: 'list' }
  | { name: 'cleanups' }
  | { name: 'remove'; email: string; operator?: string | undefined }
  | { name: 'admin'; email: string; admin: boolean; operator: string }
  | { name: 'enrollment-code'; email: string; operator: string }
  | { name: 'reset-passkeys'; email: string; operator: string }
  | { name: 'end-sessions'; email: string; operator?: string | undefined };

const ONE_ADDRESS_COMMANDS = ['add', 'remove', 'admin', 'enrollment-code', 'reset-passkeys', 'end-sessions'] as const;
const takesOneAddress = (name: string | undefined): name is (typeof ONE_ADDRESS_COMMANDS)[number] =>
  (ONE_ADDRESS_COMMANDS as readonly (string | undefined)[]).includes(name);

const FLAGS: Record<string, string[]> = { add: ['--admin', '--take-over'], admin: ['--on', '--off'] };
/** What changes who may administer, or how they prove it, names a person in the audit log, not a login. */
const NEEDS_OPERATOR = ['admin', 'enrollment-code', 'reset-passkeys'];
const OPERATOR_SHAPE = /^[\p{L}\p{N} .@_'-]{2,80}$/u;

/** Takes `--operator <name>` or `--operator=<name>` out of the arguments. */
function takeOperator(args: string[]): { rest: string[]; operator?: string; error?: string } {
  const rest: string[] = [];
  let operator: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg !== '--operator' && !arg.startsWith('--operator=')) {
      rest.push(arg);
      continue;
    }
    const value = arg === '--operator' ? args[++index] : arg.slice('--operator='.length);
    if (!value || value.startsWith('--'))
      return { rest, error: '--operator needs a name, e.g. --operator "Jane Doe".' };
    operator = value.trim();
  }
  if (operator !== undefined && !OPERATOR_SHAPE.test(operator)) {
    return { rest, error: "--operator takes a person's name or e-mail address (letters, digits, spaces, . @ _ ' -)." };
  }
  return operator === undefined ? { rest } : { rest, operator };
}

export interface Io {
  out(text: string): void;
  err(text: string): void;
}
const processIo: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

export function parseUsersArgs(args: string[]): UsersCommand | { error: string } {
  const [name, ...withOperator] = args;
  const { rest, operator, error } = takeOperator(withOperator);
  if (error) return { error };
  const flags = rest.filter((arg) => arg.startsWith('--'));
  const positional = rest.filter((arg) => !arg.startsWith('--'));
  const allowedFlags = FLAGS[name ?? ''] ?? [];
  const unknownFlag = flags.find((flag) => !allowedFlags.includes(flag));
  if (unknownFlag) return { error: `Unknown option ${unknownFlag} for "users ${name ?? ''}".` };
  if (name === 'list' || name === 'cleanups')
    return positional.length === 0 ? { name } : { error: `"users ${name}" takes no arguments.` };
  if (!takesOneAddress(name)) return { error: name ? `Unknown command "users ${name}".` : 'Missing a command.' };
  if (positional.length !== 1) return { error: `"users ${name}" takes exactly one e-mail address.` };
  const email = emailSchema.safeParse(positional[0]);
  if (!email.success) return { error: `"${positional[0]}" is not a valid e-mail address.` };
  const admin = name === 'add' && flags.includes('--admin');
  if (operator === undefined && (NEEDS_OPERATOR.includes(name) || admin)) {
    return { error: `"users ${name}${admin ? ' --admin' : ''}" needs --operator <your name>, for the audit log.` };
  }
  if (name === 'admin') {
    if (flags.length !== 1) return { error: '"users admin" takes exactly one of --on or --off.' };
    return { name, email: email.data, admin: flags[0] === '--on', operator: operator ?? '' };
  }
  if (name === 'enrollment-code' || name === 'reset-passkeys')
    return { name, email: email.data, operator: operator ?? '' };
  if (name === 'add') return { name, email: email.data, admin, takeOver: flags.includes('--take-over'), operator };
  return { name, email: email.data, operator };
}

const describeRow = (row: UserRow) =>
  [row.admin ? 'admin' : 'user', row.activated ? 'activated' : 'invited', row.registered ? null : 'not registered']
    .filter(Boolean)
    .join(', ');

export async function runUsersCommand(
  command: UsersCommand,
  domain: Pick<Domain, 'users' | 'userAdmin' | 'accountCleaner' | 'accountCleanups' | 'passkeys' | 'sessions'>,
  io: Io = processIo,
) {
  const { users, userAdmin, passkeys, sessions } = domain;
  // The audit log names the person who said who they are, else the operator's login (the CLI has no account).
  const actor = `cli:${('operator' in command && command.operator) || os.userInfo().username}`;
  const printCode = (email: string, enrollment: { code: string; expiresAt: string }) =>
    io.out(
      `Enrollment code for ${email}: ${enrollment.code}\n` +
        `Give it to them in person or by phone, not by e-mail. It sets up their first passkey, once, until ${enrollment.expiresAt}.\n`,
    );
  try {
    if (command.name === 'list') {
      const { items } = await users.list();
      const width = Math.max(5, ...items.map((row) => row.email.length));
      for (const row of items) io.out(`${row.email.padEnd(width)}  ${describeRow(row)}\n`);
      io.err(`${items.length} allowed ${items.length === 1 ? 'user' : 'users'}\n`);
    } else if (command.name === 'add') {
      await userAdmin.addUser({ email: command.email, admin: command.admin, actor, takeOver: command.takeOver });
      io.out(
        `Added ${command.email}${command.admin ? ' as an administrator' : ''}. They set a password with "Forgot Password" on the login screen.\n`,
      );
      if (command.admin) printCode(command.email, await passkeys.issueEnrollmentCode({ email: command.email, actor }));
    } else if (command.name === 'enrollment-code') {
      printCode(command.email, await passkeys.issueEnrollmentCode({ email: command.email, actor }));
    } else if (command.name === 'cleanups') {
      const { done, pending } = await domain.accountCleaner.runAll();
      const left = await domain.accountCleanups.pending(100);
      if (done > 0) io.out(`Deleted the sign-in accounts of ${done} removed ${done === 1 ? 'user' : 'users'}.\n`);
      for (const item of left.items) {
        io.out(`${item.email}  removed by ${item.requestedBy}, ${item.attempts} attempts: ${item.lastError ?? ''}\n`);
      }
      io.err(`${left.total} account clean-up${left.total === 1 ? '' : 's'} pending\n`);
      if (pending > 0) return EXIT.unavailable;
    } else if (command.name === 'reset-passkeys') {
      // Recovery for an administrator who lost their passkey; the audit log names the operator.
      const { removed, enrollment } = await passkeys.resetPasskeys({ email: command.email, actor });
      io.out(
        `Removed ${removed === 1 ? '1 passkey' : `${removed} passkeys`} of ${command.email} and signed them out everywhere. They set up a new one on their next visit to the admin page, with this code.\n`,
      );
      printCode(command.email, enrollment);
    } else if (command.name === 'end-sessions') {
      await sessions.endSessionsOf({ email: command.email, actor });
      io.out(`${command.email} is signed out on every device and must sign in again.\n`);
    } else if (command.name === 'admin') {
      await userAdmin.setAdmin({ email: command.email, admin: command.admin, actor });
      io.out(`${command.email} is ${command.admin ? 'now' : 'no longer'} an administrator.\n`);
      const enrollment = command.admin ? await passkeys.codeForNewAdmin({ email: command.email, actor }) : undefined;
      if (enrollment) printCode(command.email, enrollment);
    } else {
      const { accountCleanup } = await userAdmin.removeUser({ email: command.email, actor });
      io.out(
        accountCleanup === 'done'
          ? `Removed ${command.email} and deleted its sign-in account.\n`
          : `Removed ${command.email}: they can no longer sign in. The identity provider did not answer, so its sign-in account is deleted later: the server retries until done, or run "users cleanups".\n`,
      );
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
