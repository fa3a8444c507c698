import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';
import { createBatchedLimit } from './batched-limit.ts';
import { createRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';

const HOUR_MS = 3_600_000;

describe('createBatchedLimit', () => {
  let database: DatabaseHandle;
  let at: number;
  let store: RateLimitStore;
  const now = () => at;

  before(async () => {
    database = await openDatabase(await testPgliteTarget());
  });
  after(() => database.close());
  beforeEach(async () => {
    await database.db.execute(sql`delete from rate_limit_windows`);
    at = 500_000 * HOUR_MS + 60_000;
    store = createRateLimitStore(database.db, { now });
  });

  it('counts exactly in one process, without a database write per hit, and sends the count in one statement', async () => {
    const limit = createBatchedLimit(store, 'downloads', 3, HOUR_MS, { now });
    const waits = [];
    for (let i = 0; i < 4; i++) waits.push(await limit.hit('jane@example.com'));
    assert.deepEqual(waits.slice(0, 3), [undefined, undefined, undefined]);
    assert.equal(waits[3], HOUR_MS - 60_000, 'the fourth waits until the hour ends');
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 0, 'nothing written yet');
    await limit.flush();
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 4);
    await limit.flush();
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 4, 'a flush with nothing new adds nothing');
  });

  it('shares one allowance between instances: each starts from the shared count and learns the others at its flush', async () => {
    const first = createBatchedLimit(store, 'downloads', 5, HOUR_MS, { now });
    const second = createBatchedLimit(createRateLimitStore(database.db, { now }), 'downloads', 5, HOUR_MS, { now });
    await first.hit('jane@example.com');
    await first.hit('jane@example.com');
    await first.flush();
    for (let i = 0; i < 2; i++) assert.equal(await second.hit('jane@example.com'), undefined);
    assert.ok((await second.hit('jane@example.com')) === undefined, 'fifth of five');
    assert.ok(
      (await second.hit('jane@example.com')) !== undefined,
      'the sixth, counting the first instance, is refused',
    );
    await second.flush();
    await first.hit('jane@example.com');
    await first.flush();
    assert.ok((await first.spentFor('jane@example.com')) !== undefined, 'after its flush the first knows as well');
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 7);
  });

  it('starts again when the window ends, and does not carry an ended window into the new one', async () => {
    const limit = createBatchedLimit(store, 'unknown-parcels', 2, HOUR_MS, { now });
    await limit.hit('jane@example.com');
    await limit.hit('jane@example.com');
    assert.ok((await limit.spentFor('jane@example.com')) !== undefined);
    at += HOUR_MS;
    assert.equal(await limit.spentFor('jane@example.com'), undefined);
    await limit.flush();
    assert.equal(await store.peek('unknown-parcels:jane@example.com', HOUR_MS), 0, "the last hour's hits were dropped");
  });

  it('keeps what it counted through a database outage and sends it once the database answers again', async () => {
    let failing = false;
    const flaky: RateLimitStore = {
      ...store,
      hitMany: (...args) => (failing ? Promise.reject(new Error('connection refused')) : store.hitMany(...args)),
    };
    const limit = createBatchedLimit(flaky, 'downloads', 100, HOUR_MS, { now });
    await limit.hit('jane@example.com');
    failing = true;
    await limit.hit('jane@example.com');
    await assert.rejects(limit.flush(), /connection refused/);
    assert.equal(await limit.hit('jane@example.com'), undefined, 'downloads go on while the count cannot be sent');
    failing = false;
    await limit.flush();
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 3);
  });

  it('reads the shared count again after a failed first read instead of starting from zero', async () => {
    await store.hit('downloads:jane@example.com', HOUR_MS, 10);
    let failing = true;
    const flaky: RateLimitStore = {
      ...store,
      peek: (...args) => (failing ? Promise.reject(new Error('connection refused')) : store.peek(...args)),
    };
    const limit = createBatchedLimit(flaky, 'downloads', 10, HOUR_MS, { now });
    await assert.rejects(limit.hit('jane@example.com'), /connection refused/);
    failing = false;
    assert.ok((await limit.hit('jane@example.com')) !== undefined, 'the ten hits made elsewhere count');
  });

  it('remembers at most maxKeys keys, dropping the oldest that have nothing left to send', async () => {
    const limit = createBatchedLimit(store, 'downloads', 1, HOUR_MS, { now, maxKeys: 2 });
    await limit.hit('a@example.com');
    await limit.flush();
    await limit.hit('b@example.com');
    await limit.hit('c@example.com');
    await limit.flush();
    assert.equal(await store.peek('downloads:b@example.com', HOUR_MS), 1, 'b was kept: it had a hit to send');
    assert.ok((await limit.hit('a@example.com')) !== undefined, 'a, forgotten, reads its count back from the store');
  });
});
