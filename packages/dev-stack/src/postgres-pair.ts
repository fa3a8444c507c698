/**
 * A PostgreSQL primary and a synchronous streaming replica of its own, in a temporary folder, for the failover
 * drill: initdb, pg_basebackup, pg_ctl, pg_rewind from the machine's PostgreSQL (Debian's
 * /usr/lib/postgresql/<version>/bin, or PG_BIN). Nothing is registered with the machine (no pg_createcluster):
 * `remove()` stops both servers and deletes the folder, and so does the process's exit should a run die first.
 * As root the servers run as the `postgres` account (PostgreSQL refuses root).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

export interface PostgresNode {
  name: string;
  port: number;
  dataDir: string;
  /** A superuser URL to the `portal` database on this node alone. */
  url: string;
}

export interface PostgresPair {
  nodes: [PostgresNode, PostgresNode];
  /** Both nodes, libpq style, with target_session_attrs=read-write: what the portal is given. */
  url: string;
  /**
   * Stops a node at once, as a crash or a lost machine does (no checkpoint, connections cut). This and the
   * calls below run their programs without blocking: the drill's load, and its reading of the instances'
   * output, go on meanwhile (an instance whose output is not read stops at its next log line).
   */
  crash(node: PostgresNode): Promise<void>;
  promote(node: PostgresNode): Promise<void>;
  /** Brings a failed primary back as a replica of `primary`: pg_rewind, then streaming. */
  rejoinAsReplica(node: PostgresNode, primary: PostgresNode): Promise<void>;
  /** Waits until `replica` has replayed everything `primary` has written so far. */
  waitForReplay(primary: PostgresNode, replica: PostgresNode, withinMs: number): Promise<void>;
  remove(): void;
}

const DATABASE = 'portal';

export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('PostgreSQL server programs not found: install postgresql, or set PG_BIN');
  return path.join(root, newest, 'bin');
}

export async function startPostgresPair(options: { ports: [number, number]; log?: (line: string) => void }) {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const root = mkdtempSync(path.join(os.tmpdir(), 'portal-pg-pair-'));
  const owner = asRoot ? postgresAccount() : undefined;
  if (owner) chownSync(root, owner.uid, owner.gid);
  const run = (program: string, args: string[]) => {
    const command = path.join(bin, program);
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    const result = spawnSync(file, argv, { cwd: root, encoding: 'utf8', timeout: 60_000 });
    options.log?.(`${program} ${args.join(' ')}: exit ${result.status}`);
    if (result.status !== 0) {
      throw new Error(`${program} failed: ${result.error?.message ?? ''} ${result.stderr || result.stdout}`);
    }
    return result.stdout;
  };
  const runAsync = (program: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const command = path.join(bin, program);
      const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
      const child = spawn(file, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
      let output = '';
      for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
      child.once('error', reject);
      child.once('close', (status) => {
        options.log?.(`${program} ${args.join(' ')}: exit ${status}`);
        if (status === 0) resolve();
        else reject(new Error(`${program} failed: ${output}`));
      });
    });
  const node = (name: string, port: number): PostgresNode => ({
    name,
    port,
    dataDir: path.join(root, name),
    url: `postgres://postgres@127.0.0.1:${port}/${DATABASE}`,
  });
  const nodes: [PostgresNode, PostgresNode] = [node('a', options.ports[0]), node('b', options.ports[1])];
  const [primary, replica] = nodes;
  const start = (target: PostgresNode) =>
    run('pg_ctl', ['start', '-w', '-t', '30', '-D', target.dataDir, '-l', path.join(root, `${target.name}.log`)]);
  const stopQuietly = (target: PostgresNode) => {
    if (existsSync(path.join(target.dataDir, 'postmaster.pid'))) {
      try {
        run('pg_ctl', ['stop', '-m', 'immediate', '-D', target.dataDir]);
      } catch {
        // Already gone.
      }
    }
  };
  let removed = false;
  // Interrupted (Ctrl-C, a runner's timeout), the servers go too, and the signal then ends the process as before.
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.kill(process.pid, signal);
  };
  const remove = () => {
    if (removed) return;
    removed = true;
    for (const target of nodes) stopQuietly(target);
    rmSync(root, { recursive: true, force: true });
    process.off('exit', remove);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('exit', remove);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  /**
   * The settings of a node: its own port and socket folder, and WAL for a replica and for pg_rewind. The
   * primary's wait for the replica's flush (synchronous_standby_names) is set by ALTER SYSTEM once it streams.
   */
  const settings = (target: PostgresNode) =>
    [
      `port = ${target.port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${root}'`,
      `wal_level = replica`,
      `max_wal_senders = 5`,
      // pg_rewind needs either data checksums or this.
      `wal_log_hints = on`,
      `hot_standby = on`,
      `fsync = on`,
      `synchronous_commit = on`,
      `wal_keep_size = '256MB'`,
      '',
    ].join('\n');
  const configure = async (target: PostgresNode) => {
    // postgresql.conf, not .auto.conf: ALTER SYSTEM rewrites the latter, and a base backup copies both.
    await appendFile(path.join(target.dataDir, 'postgresql.conf'), settings(target));
  };
  const standBy = async (target: PostgresNode, upstream: PostgresNode) => {
    const signal = path.join(target.dataDir, 'standby.signal');
    await writeFile(signal, '');
    // After the settings copied from the primary (its synchronous_standby_names among them), so these win.
    await appendFile(
      path.join(target.dataDir, 'postgresql.conf'),
      `synchronous_standby_names = ''\nprimary_conninfo = 'host=127.0.0.1 port=${upstream.port} user=postgres application_name=${target.name}'\n`,
    );
    if (owner) chownSync(signal, owner.uid, owner.gid);
  };

  try {
    run('initdb', [
      '--no-sync',
      '-D',
      primary.dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    // Synchronous only once the replica streams: until then every commit (create database too) would wait.
    await configure(primary);
    start(primary);
    await queryOn({ ...primary, url: primary.url.replace(`/${DATABASE}`, '/postgres') }, `create database ${DATABASE}`);
    run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      replica.dataDir,
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    // The copy carries the primary's settings: a promoted replica must not wait for a standby it does not have.
    await configure(replica);
    await standBy(replica, primary);
    start(replica);
    await queryOn(primary, `alter system set synchronous_standby_names = '*'`);
    await queryOn(primary, 'select pg_reload_conf()');
    await waitFor(
      async () => {
        const rows = await queryOn(primary, `select sync_state from pg_stat_replication`);
        return rows.some((row) => row.sync_state === 'sync');
      },
      30_000,
      'the replica to stream synchronously',
    );
  } catch (error) {
    remove();
    throw error;
  }

  const pair: PostgresPair = {
    nodes,
    url: `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${replica.port}/${DATABASE}?target_session_attrs=read-write`,
    crash: (target) => runAsync('pg_ctl', ['stop', '-m', 'immediate', '-D', target.dataDir]),
    promote: (target) => runAsync('pg_ctl', ['promote', '-w', '-t', '90', '-D', target.dataDir]),
    rejoinAsReplica: async (target, upstream) => {
      // A promotion's checkpoint runs in the background, and until it is written the control file still names
      // the old timeline: pg_rewind would find the two on one timeline and rewind nothing.
      await queryOn(upstream, 'checkpoint');
      // After a crash pg_rewind first runs the target's recovery in single-user mode, then rewinds it.
      await runAsync('pg_rewind', [
        '--target-pgdata',
        target.dataDir,
        '--source-server',
        `host=127.0.0.1 port=${upstream.port} user=postgres dbname=${DATABASE}`,
      ]);
      // pg_rewind copied the new primary's settings (its port among them): this node's own go last.
      await configure(target);
      await standBy(target, upstream);
      await runAsync('pg_ctl', [
        'start',
        '-w',
        '-t',
        '90',
        '-D',
        target.dataDir,
        '-l',
        path.join(root, `${target.name}.log`),
      ]);
    },
    waitForReplay: async (upstream, target, withinMs) => {
      const [{ lsn }] = (await queryOn(upstream, 'select pg_current_wal_lsn()::text as lsn')) as [{ lsn: string }];
      await waitFor(
        async () => {
          const [row] = await queryOn(target, `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`);
          return row?.done === true;
        },
        withinMs,
        `${target.name} to replay up to ${lsn}`,
      );
    },
    remove,
  };
  return pair;
}

function postgresAccount() {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function queryOn(target: PostgresNode, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

async function waitFor(check: () => Promise<boolean>, withinMs: number, what: string) {
  const deadline = performance.now() + withinMs;
  let last: unknown;
  while (performance.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    await sleep(100);
  }
  throw new Error(`waited ${withinMs} ms for ${what}${last ? `: ${String(last)}` : ''}`);
}
