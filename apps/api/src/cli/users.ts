/** `npm run portal -- users ...`: the same add, remove and role change as the admin screen, for operators and scripts. */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { emailSchema } from '@portal/contract';
import { IdentityProviderUnavailableError } from '../identity/identity-provider.ts';
import { DomainError } from '../domain-error.ts';
import { loadConfig } from '../config.ts';
import { withDomain, type Domain } from '../domain.ts';
import type { UserRow } from '../users/repository.ts';
import { EXIT, stdio, type CliOutput } from './cli-io.ts';
import { USERS_USAGE, usageOf } from './usage.ts';

/** `operator`: who runs the command, as they said with --operator (undefined: not said). */
export type UsersCommand =
  | { name: 'add'; email: string; admin: boolean; takeOver: boolean; operator?: string | undefined }
  | { name: 'list' }
  | { name: 'cleanups' }
  | { name: 'remove'; email: string; operator?: string | undefined }
  | { name: 'admin'; email: string; admin: boolean; operator: string }
  | { name: 'finance'; email: string; finance: boolean; operator: string }
  | { name: 'enrollment-code'; email: string; operator: string }
  | { name: 'reset-passkeys'; email: string; operator: string }
  | { name: 'end-sessions'; email: string; operator?: string | undefined }
  | { name: 'adopt'; email: string; operator: string };

const ONE_ADDRESS_COMMANDS = [
  'add',
  'remove',
  'admin',
  'finance',
  'enrollment-code',
  'reset-passkeys',
  'end-sessions',
  'adopt',
] as const;
const takesOneAddress = (name: string | undefined): name is (typeof ONE_ADDRESS_COMMANDS)[number] =>
  (ONE_ADDRESS_COMMANDS as readonly (string | undefined)[]).includes(name);

/** Every option a users command may take; which command takes which is checked after parsing. */
const OPTIONS = {
  admin: { type: 'boolean' },
  'take-over': { type: 'boolean' },
  on: { type: 'boolean' },
  off: { type: 'boolean' },
  operator: { type: 'string' },
} as const;
const FLAGS: Record<string, (keyof typeof OPTIONS)[]> = {
  add: ['admin', 'take-over'],
  admin: ['on', 'off'],
  finance: ['on', 'off'],
};
/** What changes a role, or how an administrator proves theirs, names a person in the audit log, not a login. */
const NEEDS_OPERATOR = ['admin', 'finance', 'enrollment-code', 'reset-passkeys', 'adopt'];
const OPERATOR_SHAPE = /^[\p{L}\p{N} .@_'-]{2,80}$/u;
const OPERATOR_MISSING = '--operator needs a name, e.g. --operator "Jane Doe".';

/** parseArgs' refusals, in this command's words. */
function describeParseError(name: string | undefined, error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && message.includes('--operator')) return OPERATOR_MISSING;
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `Unknown option ${option} for "users ${name ?? ''}".`;
  return message;
}

export function parseUsersArgs(args: string[]): UsersCommand | { error: string } {
  const [name, ...rest] = args;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    return { error: describeParseError(name, error) };
  }
  const { values, positionals } = parsed;
  const operator = values.operator?.trim();
  if (operator !== undefined && operator.length === 0) return { error: OPERATOR_MISSING };
  if (operator !== undefined && !OPERATOR_SHAPE.test(operator)) {
    return { error: "--operator takes a person's name or e-mail address (letters, digits, spaces, . @ _ ' -)." };
  }
  const flags = (['admin', 'take-over', 'on', 'off'] as const).filter((flag) => values[flag]);
  const unknownFlag = flags.find((flag) => !(FLAGS[name ?? ''] ?? []).includes(flag));
  if (unknownFlag) return { error: `Unknown option --${unknownFlag} for "users ${name ?? ''}".` };
  if (name === 'list' || name === 'cleanups')
    return positionals.length === 0 ? { name } : { error: `"users ${name}" takes no arguments.` };
  if (!takesOneAddress(name)) return { error: name ? `Unknown command "users ${name}".` : 'Missing a command.' };
  if (positionals.length !== 1) return { error: `"users ${name}" takes exactly one e-mail address.` };
  const email = emailSchema.safeParse(positionals[0]);
  if (!email.success) return { error: `"${positionals[0]}" is not a valid e-mail address.` };
  const admin = name === 'add' && values.admin === true;
  if (operator === undefined && (NEEDS_OPERATOR.includes(name) || admin)) {
    return { error: `"users ${name}${admin ? ' --admin' : ''}" needs --operator <your name>, for the audit log.` };
  }
  if (name === 'admin') {
    if (flags.length !== 1) return { error: '"users admin" takes exactly one of --on or --off.' };
    return { name, email: email.data, admin: flags[0] === 'on', operator: operator ?? '' };
  }
  if (name === 'finance') {
    if (flags.length !== 1) return { error: '"users finance" takes exactly one of --on or --off.' };
    return { name, email: email.data, finance: flags[0] === 'on', operator: operator ?? '' };
  }
  if (name === 'enrollment-code' || name === 'reset-passkeys' || name === 'adopt')
    return { name, email: email.data, operator: operator ?? '' };
  if (name === 'add') return { name, email: email.data, admin, takeOver: values['take-over'] === true, operator };
  return { name, email: email.data, operator };
}

const describeRow = (row: UserRow) =>
  [
    row.admin ? 'admin' : 'user',
    row.finance ? 'finance' : null,
    row.activated ? 'activated' : 'invited',
    row.registered ? null : 'not registered',
  ]
    .filter(Boolean)
    .join(', ');

export async function runUsersCommand(
  command: UsersCommand,
  domain: Pick<
    Domain,
    | 'users'
    | 'userAdmin'
    | 'financeRole'
    | 'accountCleaner'
    | 'accountCleanups'
    | 'passkeys'
    | 'sessions'
    | 'provisioning'
  >,
  output: CliOutput = stdio,
) {
  const { users, userAdmin, passkeys, sessions } = domain;
  // The audit log names the person who said who they are, else the operator's login (the CLI has no account).
  const actor = `cli:${('operator' in command && command.operator) || os.userInfo().username}`;
  const printCode = (email: string, enrollment: { code: string; expiresAt: string }) => {
    output.out(`Enrollment code for ${email}: ${enrollment.code}`);
    output.out(
      `Give it to them in person or by phone, not by e-mail. It sets up their first passkey, once, until ${enrollment.expiresAt}.`,
    );
  };
  try {
    if (command.name === 'list') {
      const { items } = await users.list();
      const width = Math.max(5, ...items.map((row) => row.email.length));
      for (const row of items) output.out(`${row.email.padEnd(width)}  ${describeRow(row)}`);
      output.err(`${items.length} allowed ${items.length === 1 ? 'user' : 'users'}`);
    } else if (command.name === 'add') {
      await userAdmin.addUser({ email: command.email, admin: command.admin, actor, takeOver: command.takeOver });
      output.out(
        `Added ${command.email}${command.admin ? ' as an administrator' : ''}. They set a password with "Forgot Password" on the login screen.`,
      );
      if (command.admin) printCode(command.email, await passkeys.issueEnrollmentCode({ email: command.email, actor }));
    } else if (command.name === 'enrollment-code') {
      printCode(command.email, await passkeys.issueEnrollmentCode({ email: command.email, actor }));
    } else if (command.name === 'cleanups') {
      const { done, pending } = await domain.accountCleaner.runAll();
      const left = await domain.accountCleanups.pending(100);
      if (done > 0) output.out(`Deleted the sign-in accounts of ${done} removed ${done === 1 ? 'user' : 'users'}.`);
      for (const item of left.items) {
        output.out(`${item.email}  removed by ${item.requestedBy}, ${item.attempts} attempts: ${item.lastError ?? ''}`);
      }
      output.err(`${left.total} account clean-up${left.total === 1 ? '' : 's'} pending`);
      if (pending > 0) return EXIT.unavailable;
    } else if (command.name === 'reset-passkeys') {
      // Recovery for an administrator who lost their passkey; the audit log names the operator.
      const { removed, enrollment } = await passkeys.resetPasskeys({ email: command.email, actor });
      output.out(
        `Removed ${removed === 1 ? '1 passkey' : `${removed} passkeys`} of ${command.email} and signed them out everywhere. They set up a new one on their next visit to the admin page, with this code.`,
      );
      printCode(command.email, enrollment);
    } else if (command.name === 'end-sessions') {
      await sessions.endSessionsOf({ email: command.email, actor });
      output.out(`${command.email} is signed out on every device and must sign in again.`);
    } else if (command.name === 'adopt') {
      const outcome = await domain.provisioning.adopt({ email: command.email, actor });
      output.out(
        outcome === 'adopted'
          ? `${command.email} is now kept by the company directory (SCIM): its next sync may change, deactivate or remove them, and the admin screen no longer does.`
          : `${command.email} is kept by the company directory already; nothing was changed.`,
      );
    } else if (command.name === 'finance') {
      const { enrollment } = await domain.financeRole.setFinance({
        email: command.email,
        finance: command.finance,
        actor,
      });
      output.out(`${command.email} ${command.finance ? 'now has' : 'no longer has'} the finance role.`);
      if (enrollment) printCode(command.email, enrollment);
    } else if (command.name === 'admin') {
      await userAdmin.setAdmin({ email: command.email, admin: command.admin, actor });
      output.out(`${command.email} is ${command.admin ? 'now' : 'no longer'} an administrator.`);
      const enrollment = command.admin ? await passkeys.codeForNewAdmin({ email: command.email, actor }) : undefined;
      if (enrollment) printCode(command.email, enrollment);
    } else {
      const { accountCleanup } = await userAdmin.removeUser({ email: command.email, actor });
      output.out(
        accountCleanup === 'done'
          ? `Removed ${command.email} and deleted its sign-in account.`
          : `Removed ${command.email}: they can no longer sign in. The identity provider did not answer, so its sign-in account is deleted later: the server retries until done, or run "users cleanups".`,
      );
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DomainError) {
      output.err(`${error.message}`);
      return EXIT.refused;
    }
    if (error instanceof IdentityProviderUnavailableError) {
      output.err(
        `The identity provider could not be reached (${error.message}); nothing was changed. Check the FIREBASE_* settings, or that the Auth emulator is running.`,
      );
      return EXIT.unavailable;
    }
    output.err(`users ${command.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.software;
  }
}

export async function run(args: string[]): Promise<number> {
  const command = parseUsersArgs(args);
  if ('error' in command) {
    stdio.err(`${command.error}\n\n${usageOf(USERS_USAGE)}`);
    return EXIT.usage;
  }
  // What the user admin logs (an account left behind, say) is a warning the operator should read.
  const log = {
    error: (_details: object, message: string) => stdio.err(`warning: ${message}`),
    warn: (_details: object, message: string) => stdio.err(`warning: ${message}`),
  };
  return withDomain(loadConfig(), (domain) => runUsersCommand(command, domain), { log });
}
