import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { count, sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { rateLimitWindows } from '../db/schema.ts';
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
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 3, 'the refused fourth counts nothing');
    await limit.flush();
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 3, 'a flush with nothing new adds nothing');
  });

  it('answers without a promise once the shared count is known, and counts the same either way', async () => {
    await store.hit('downloads:jane@example.com', HOUR_MS, 1);
    const limit = createBatchedLimit(store, 'downloads', 3, HOUR_MS, { now });
    const first = limit.hit('jane@example.com');
    assert.ok(first instanceof Promise, 'the first use of a key in a window reads the shared count');
    assert.equal(await first, undefined);
    assert.equal(limit.hit('jane@example.com'), undefined, 'the second hit is decided there and then');
    assert.equal(limit.spentFor('jane@example.com'), HOUR_MS - 60_000, 'one made elsewhere and two here');
    assert.equal(limit.leftFor('jane@example.com'), 0);
    const held = limit.reserve('jane@example.com');
    assert.ok(!(held instanceof Promise));
    assert.equal(held.waitMs, HOUR_MS - 60_000);
    assert.equal(limit.hit('jane@example.com'), HOUR_MS - 60_000);
    await limit.flush();
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 3);
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
    // 2 + 3 from the second + 1 the first allowed before it learned the second's: one flush's overshoot.
    assert.equal(await store.peek('downloads:jane@example.com', HOUR_MS), 6);
  });

  it('decides the calls anyone may make in memory alone: no read, no write, until the batch', async () => {
    let reads = 0;
    let writes = 0;
    const counting: RateLimitStore = {
      ...store,
      peek: (...args) => (reads++, store.peek(...args)),
      hitMany: (...args) => (writes++, store.hitMany(...args)),
    };
    const limit = createBatchedLimit(counting, 'anonymous', 4, 60_000, { now, sharedBy: 1 });
    const waits = Array.from({ length: 10 }, () => limit.hitNow('192.0.2.1'));
    assert.deepEqual(waits.slice(0, 4), [undefined, undefined, undefined, undefined]);
    assert.ok(waits.slice(4).every((wait) => wait !== undefined));
    assert.deepEqual([reads, writes], [0, 0]);
    await limit.flush();
    assert.equal(writes, 1, 'one statement for every key');
    assert.equal(await store.peek('anonymous:192.0.2.1', 60_000), 4, 'refusals are not counted');
    for (let i = 0; i < 100; i++) limit.hitNow('192.0.2.1');
    await limit.flush();
    assert.equal(writes, 2, "once more after a send, adding nothing, to learn the other instances' hits");
    for (let i = 0; i < 100; i++) limit.hitNow('192.0.2.1');
    await limit.flush();
    assert.equal(writes, 2, 'a flood of refusals has nothing to send');
  });

  it('allows each of N instances its share until the shared count comes back, then the whole allowance', async () => {
    const first = createBatchedLimit(store, 'anonymous', 6, 60_000, { now, sharedBy: 2 });
    const second = createBatchedLimit(store, 'anonymous', 6, 60_000, { now, sharedBy: 2 });
    const allowed = (limit: typeof first, times: number) =>
      Array.from({ length: times }, () => limit.hitNow('192.0.2.9')).filter((wait) => wait === undefined).length;
    assert.equal(allowed(first, 5), 3, 'half of six before anything is known');
    assert.equal(allowed(second, 5), 3);
    await first.flush();
    await second.flush();
    assert.equal(await store.peek('anonymous:192.0.2.9', 60_000), 6);
    assert.equal(allowed(second, 5), 0, 'the second flushed last: it knows both halves are spent');
    await first.flush();
    assert.equal(allowed(first, 5), 0, 'the first learns the second half at its next flush, with nothing to add');
  });

  it('holds a reserved hit until it is settled, so concurrent attempts cannot all pass', async () => {
    const limit = createBatchedLimit(store, 'unknown-parcels', 2, HOUR_MS, { now });
    const attempts = await Promise.all([1, 2, 3].map(() => limit.reserve('jane@example.com')));
    assert.deepEqual(
      attempts.map((attempt) => attempt.waitMs === undefined),
      [true, true, false],
    );
    attempts[0]!.settle(false);
    attempts[0]!.settle(true);
    assert.equal((await limit.reserve('jane@example.com')).waitMs, undefined, 'a settled miss gives its hit back');
    attempts[1]!.settle(true);
    await limit.flush();
    assert.equal(await store.peek('unknown-parcels:jane@example.com', HOUR_MS), 1, 'only the first settle counts');
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
    await assert.rejects(async () => limit.hit('jane@example.com'), /connection refused/);
    failing = false;
    assert.ok((await limit.hit('jane@example.com')) !== undefined, 'the ten hits made elsewhere count');
  });

  it('stays within maxKeys under a flood of keys, even when every key has hits to send', async () => {
    const limit = createBatchedLimit(store, 'anonymous', 5, 60_000, { now, sharedBy: 1, maxKeys: 100 });
    for (let i = 0; i < 10_000; i++) limit.hitNow(`198.51.${i >> 8}.${i & 255}`);
    await limit.flush();
    const [row] = await database.db.select({ keys: count() }).from(rateLimitWindows);
    assert.ok((row?.keys ?? 0) <= 100, `${row?.keys} keys sent`);
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

  it('drops the key used longest ago, however often the others were used in a row', async () => {
    const peeked: string[] = [];
    const counting: RateLimitStore = {
      ...store,
      peek: (key, windowMs) => {
        peeked.push(key);
        return store.peek(key, windowMs);
      },
    };
    const limit = createBatchedLimit(counting, 'downloads', 10, HOUR_MS, { now, maxKeys: 2 });
    for (const key of ['a', 'a', 'b', 'b', 'a', 'a']) await limit.hit(`${key}@example.com`);
    await limit.flush();
    await limit.hit('c@example.com');
    peeked.length = 0;
    await limit.hit('a@example.com');
    assert.deepEqual(peeked, [], 'a, used last before c, is still in memory');
    await limit.hit('b@example.com');
    assert.deepEqual(peeked, ['downloads:b@example.com'], 'b, used longest ago, was dropped and is read back');
  });
});
