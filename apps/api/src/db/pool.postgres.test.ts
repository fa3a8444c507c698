import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { startTcpProxy } from '../../test/helpers/tcp-proxy.ts';
import { databaseTargetFor, openDatabase, type DatabaseHandle } from './client.ts';

const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;
/** The query builder keeps the driver's error as its cause. */
const readTimedOut = (error: Error) => /query read timeout/i.test(String((error.cause as Error | undefined)?.message));

/**
 * Transactions on a connection that stops answering, through a TCP proxy in front of the test database: the
 * pool must neither keep the connection lent out nor lend it again.
 */
describe('the pool after a transaction on a connection that stopped answering', () => {
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let handle: DatabaseHandle;
  before(async () => {
    const real = new URL(process.env.DATABASE_URL ?? '');
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    const proxied = new URL(real);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const config = {
      databaseUrl: proxied.toString(),
      dataDir: '/nonexistent',
      // The client gives up on a silent server 500 ms after the query limit: 800 ms here.
      databaseTimeouts: { connectMs: 2000, queryMs: 300 },
    };
    handle = await openDatabase(databaseTargetFor(config), { migrate: false, allowBehind: true });
  });
  after(async () => {
    await handle?.close();
    await proxy?.close();
  });

  it("gives back the client of a transaction whose begin got no answer, and serves the next when it's back", async () => {
    await handle.db.execute(sql`select 1`);
    assert.equal(handle.poolUse().total, 1);
    proxy.stall();
    await assert.rejects(
      handle.db.transaction(async () => assert.fail('no transaction began')),
      readTimedOut,
    );
    // Lent out for good, ten of these would have been the whole pool.
    assert.deepEqual(handle.poolUse(), { total: 0, idle: 0, waiting: 0 });
    await proxy.restore();
    assert.deepEqual(await handle.db.transaction(async (tx) => rowsOf(await tx.execute(sql`select 1 as one`))), [
      { one: 1 },
    ]);
  });

  it('does not lend again the connection of a transaction that went silent half-way', async () => {
    await handle.db.execute(sql`select 1`);
    await assert.rejects(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`select 'goes silent after this'`);
        assert.equal(proxy.stallConnectionsThatSent('goes silent after this'), 1);
        await tx.execute(sql`select 2`);
      }),
      readTimedOut,
    );
    // The silent connection is still open (a firewall dropped it) and was the pool's only one: lent again, this
    // query would wait behind the silent one until its own read timeout.
    assert.deepEqual(rowsOf(await handle.db.execute(sql`select 3 as three`)), [{ three: 3 }]);
  });
});
