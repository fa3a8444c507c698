import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { freshDatabaseBeside } from '@portal/dev-stack';
import { startTcpProxy } from '../../test/helpers/tcp-proxy.ts';
import { asUnavailable } from '../dependency-unavailable.ts';
import { openDatabase, type DatabaseHandle } from './client.ts';

type Proxy = Awaited<ReturnType<typeof startTcpProxy>>;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const timeouts = { connectMs: 2000, queryMs: 2000 };

/**
 * A failover as the pool meets it, on a scratch database of this file's own. Two TCP proxies in front of it
 * stand for two servers (refused: the primary is down); `default_transaction_read_only` set on the database
 * stands for a replica or a demoted primary, which answers every write with 25006.
 */
describe('a pool on DATABASE_URL with target_session_attrs=read-write', () => {
  let scratchUrl: string;
  let admin: pg.Client;
  const proxies: Proxy[] = [];
  const handles: DatabaseHandle[] = [];
  before(async () => {
    scratchUrl = await freshDatabaseBeside(process.env.DATABASE_URL ?? '', 'failover');
    admin = new pg.Client({ connectionString: scratchUrl });
    await admin.connect();
    await admin.query('create table notes (id serial primary key, body text not null)');
  });
  after(async () => {
    for (const handle of handles) await handle.close().catch(() => {});
    for (const proxy of proxies) await proxy.close();
    await admin?.end();
  });

  async function serversInFront(count: number) {
    const real = new URL(scratchUrl);
    const started = await Promise.all(
      Array.from({ length: count }, () => startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) })),
    );
    proxies.push(...started);
    const hosts = started.map((proxy) => `127.0.0.1:${proxy.port}`).join(',');
    const url = `${real.protocol}//${real.username}:${real.password}@${hosts}${real.pathname}?target_session_attrs=read-write`;
    const handle = await openDatabase({ kind: 'postgres', url, timeouts }, { migrate: false, allowBehind: true });
    handles.push(handle);
    return { proxies: started, handle };
  }
  const backendPids = async (handle: DatabaseHandle, count: number) =>
    // At once, so the pool opens `count` connections.
    Promise.all(
      Array.from({ length: count }, async () =>
        Number(
          rowsOf<{ pid: number }>(await handle.db.execute(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`))[0]!.pid,
        ),
      ),
    );

  it('connects past a server that is down to the next, and follows when the first comes back as the primary', async () => {
    const {
      proxies: [first, second],
      handle,
    } = await serversInFront(2);
    await first!.refuse();
    await handle.db.execute(sql`insert into notes (body) values ('on the second server')`);
    await backendPids(handle, 3);
    // The second server fails; the first is back (promoted). A read meets a dead connection and is run again.
    await second!.refuse();
    await first!.restore();
    const read = rowsOf<{ count: string }>(await handle.db.execute(sql`select count(*) as count from notes`));
    assert.equal(Number(read[0]!.count) >= 1, true);
    await handle.db.execute(sql`insert into notes (body) values ('on the first server')`);
    // None of the connections to the lost server is lent again: three reads at once, all answered.
    assert.equal((await backendPids(handle, 3)).length, 3);
  });

  it('drops every connection to a server that turned read-only at the first 25006, and refuses writes as unavailable', async () => {
    const { handle } = await serversInFront(1);
    const before = await backendPids(handle, 3);
    assert.equal(handle.poolUse().total, 3);
    // One connection learns the server is read-only (25006). A plain pool would lend the other two again.
    const readOnly = await handle.db
      .transaction(async (tx) => {
        await tx.execute(sql`set transaction read only`);
        await tx.execute(sql`insert into notes (body) values ('refused')`);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.equal(asUnavailable(readOnly)?.statusCode, 503);
    const afterwards = await backendPids(handle, 2);
    assert.deepEqual(
      afterwards.filter((pid) => before.includes(pid)),
      [],
      'a connection opened before the 25006 was lent again',
    );

    // The server itself turns read-only (a replica not yet promoted): new connections are refused, as libpq does.
    const database = pg.escapeIdentifier(new URL(scratchUrl).pathname.slice(1));
    await admin.query(`alter database ${database} set default_transaction_read_only = on`);
    try {
      // The pool's connections only: an autovacuum worker on this database belongs to the superuser, and ending
      // it is refused.
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      const write = await handle.db
        .execute(sql`insert into notes (body) values ('never stored')`)
        .catch((error: unknown) => error);
      assert.equal(asUnavailable(write)?.statusCode, 503, String(write));
      const read = await handle.db.execute(sql`select 1`).catch((error: unknown) => error);
      assert.equal(asUnavailable(read)?.statusCode, 503, String(read));
    } finally {
      await admin.query(`alter database ${database} reset default_transaction_read_only`);
    }
    // Writable again: the next connection finds it, without a restart.
    await handle.db.execute(sql`insert into notes (body) values ('stored')`);
    const { rows } = await admin.query<{ body: string }>(
      `select body from notes where body in ('refused', 'never stored')`,
    );
    assert.deepEqual(rows, []);
  });

  it('lives through a server lost while a new connection asks whether it takes writes, and serves again after', async () => {
    // Seen in the failover drill: the primary stopped while a fresh pooled connection checked it, before the pool
    // listened on that connection, and its unheard 'error' ended the process.
    const {
      proxies: [server],
      handle,
    } = await serversInFront(1);
    await handle.db.execute(sql`select 1`);
    server!.cutWhenSent('transaction_read_only');
    // Three at once: the pool opens new connections, and each is lost mid-check.
    const outcomes = await Promise.all(
      Array.from({ length: 3 }, () =>
        handle.db.execute(sql`select pg_sleep(0.05)`).then(
          () => 'answered',
          (error: unknown) => (asUnavailable(error) ? 'unavailable' : String(error)),
        ),
      ),
    );
    assert.ok(outcomes.includes('unavailable'), outcomes.join(', '));
    assert.deepEqual(
      outcomes.filter((outcome) => outcome !== 'answered' && outcome !== 'unavailable'),
      [],
    );
    await server!.restore();
    await handle.db.execute(sql`insert into notes (body) values ('after the lost check')`);
  });

  it(
    'answers a caller in time when the only candidate server accepts and then never answers',
    { timeout: 120_000 },
    async () => {
      const {
        proxies: [first, second],
        handle,
      } = await serversInFront(2);
      await handle.db.execute(sql`select 1`);
      // The primary is down; the other server lets a connection in and then falls silent mid-question. Nothing
      // in the search for the primary may wait on it for ever: every checkout (and so every request) waits on it.
      await first!.refuse();
      second!.stallWhenSent('transaction_read_only');
      second!.cut();
      const outcomes = await Promise.all(
        Array.from({ length: 3 }, () =>
          Promise.race([
            handle.db.execute(sql`select 1`).then(
              () => 'answered',
              (error: unknown) => (asUnavailable(error) ? 'unavailable' : String(error)),
            ),
            new Promise((resolve) => setTimeout(() => resolve('still waiting after 60 s'), 60_000).unref()),
          ]),
        ),
      );
      assert.deepEqual(outcomes, ['unavailable', 'unavailable', 'unavailable']);
      // Service returns by itself once a server answers again (a search under way still ends first).
      await second!.restore();
      let stored: unknown;
      for (let attempt = 0; attempt < 60 && stored !== true; attempt++) {
        stored = await handle.db.execute(sql`insert into notes (body) values ('after the silent server')`).then(
          () => true,
          (error: unknown) => error,
        );
        if (stored !== true) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      assert.equal(stored, true, String(stored));
    },
  );
});
