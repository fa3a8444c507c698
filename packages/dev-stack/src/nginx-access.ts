/**
 * Can nginx's worker processes read what they must send? Started as root, nginx runs its workers as another
 * user (its compiled-in default, or the `user` directive), which must be able to pass every folder on the way
 * to the built SPA and the invoice store, and read them. A checkout under a home that only its owner may enter
 * (0700), or in a `mktemp -d` folder, answers 403 for every invoice otherwise — with nothing in the portal's
 * own logs. Checked before nginx starts, with what to change.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { chmod, copyFile } from 'node:fs/promises';
import path from 'node:path';

export interface Account {
  name: string;
  uid: number;
  gids: number[];
}

/** The user nginx's workers run as when this process starts nginx; undefined when that is this process's user. */
export function nginxWorkerAccount(nginx: string): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const configure = spawnSync(nginx, ['-V'], { encoding: 'utf8' }).stderr ?? '';
  const name = /--user=(\S+)/.exec(configure)?.[1] ?? 'nobody';
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gids = spawnSync('id', ['-G', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gids.status !== 0) throw new Error(`nginx's worker user "${name}" does not exist here`);
  return { name, uid: Number(uid.stdout), gids: gids.stdout.trim().split(/\s+/).map(Number) };
}

/** The permission bits (r=4, w=2, x=1) `account` has on a file with this owner, group and mode. */
function permissionsOf(account: Account, stats: { uid: number; gid: number; mode: number }): number {
  if (account.uid === 0) return 7;
  if (stats.uid === account.uid) return (stats.mode >> 6) & 7;
  if (account.gids.includes(stats.gid)) return (stats.mode >> 3) & 7;
  return stats.mode & 7;
}

export interface Blocked {
  /** The folder or file that stops the account. */
  path: string;
  /** Its mode and owner, e.g. "mode 0700, owner 0:0". */
  mode: string;
  /** What the account may not do there: pass through a folder, or read a file. */
  missing: 'enter' | 'read';
}

/**
 * Where `account` is stopped on the way to `target`, if anywhere: every folder on the way, the target too
 * when it is one, must let it pass (x: nginx opens files by name, it never lists); a file must let it read.
 */
export function blockedOnTheWay(account: Account, target: string): Blocked | undefined {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let depth = 0; depth <= parts.length; depth += 1) {
    const current = path.sep + parts.slice(0, depth).join(path.sep);
    // What does not exist yet is made later with this process's umask, checked on its own.
    const stats = statSync(current, { throwIfNoEntry: false });
    if (!stats) return undefined;
    const missing = stats.isDirectory() ? 'enter' : 'read';
    if (!(permissionsOf(account, stats) & (missing === 'enter' ? 1 : 4))) {
      const mode = `mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')}, owner ${stats.uid}:${stats.gid}`;
      return { path: current, mode, missing };
    }
  }
  return undefined;
}

/** Said to the operator as it is: the message is the whole story. */
export class NginxCannotReadError extends Error {}

/**
 * Throws, saying what to change, when `account` cannot reach one of `targets` or when this process's umask
 * would make the invoice files the instances write unreadable to it.
 */
export function requireNginxCanRead(
  account: Account | undefined,
  targets: { what: string; path: string; setting: string }[],
) {
  if (!account) return;
  const problems = targets.flatMap((target) => {
    const blocked = blockedOnTheWay(account, target.path);
    if (!blocked) return [];
    const fix =
      blocked.missing === 'enter'
        ? `chmod o+x ${blocked.path}   (lets other users pass through, not list it)`
        : `chmod o+r ${blocked.path}`;
    return [
      `  ${target.what} (${target.path}): "${account.name}" may not ${blocked.missing} ${blocked.path} (${blocked.mode}).\n` +
        `    Either: ${fix}\n` +
        `    or:     ${target.setting}`,
    ];
  });
  const umask = process.umask();
  if (umask & 0o004) {
    problems.push(
      `  The invoice files the instances write would not be readable by "${account.name}" (umask ${umask.toString(8).padStart(4, '0')}).\n` +
        '    Run with a umask that lets others read: umask 022',
    );
  }
  if (problems.length > 0) {
    throw new NginxCannotReadError(
      `nginx runs its workers as "${account.name}" (it is started as root) and they could not send these, answering 403:\n` +
        `${problems.join('\n')}\n` +
        `  Or start it as a user other than root: nginx's workers then run as that user.`,
    );
  }
}

/**
 * A copy of `file` in `dir`, readable and runnable by every user, for what runs as another user (the proxy
 * image's entry point as www-data): the checkout itself may be in a folder only its owner may enter (root's
 * home, a `mktemp -d` folder), where starting it would fail with EACCES. `dir` must let others pass.
 */
export async function copyForOtherUsers(file: string, dir: string): Promise<string> {
  const copy = path.join(dir, path.basename(file));
  await copyFile(file, copy);
  await chmod(copy, 0o755);
  return copy;
}
