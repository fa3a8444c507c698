import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';
import { createRateLimitStore } from './rate-limit-store.ts';

describe('createRateLimitStore', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await openDatabase(await testPgliteTarget());
  });
  after(() => database.close());

  it('counts hits per key and window, starting again when a window ends, and sweeps ended windows', async () => {
    let at = 1_000_000 * 60_000 + 1_000;
    const store = createRateLimitStore(database.db, { now: () => at });
    const other = createRateLimitStore(database.db, { now: () => at });
    assert.equal((await store.hit('a', 60_000)).hits, 1);
    assert.equal((await other.hit('a', 60_000)).hits, 2, 'two stores on one database share the count');
    assert.equal((await store.hit('b', 60_000)).hits, 1, 'keys are counted apart');
    assert.equal(await store.peek('a', 60_000), 2);
    const { resetAtMs } = await store.hit('a', 60_000);
    assert.equal(resetAtMs, 1_000_001 * 60_000);
    at += 60_000;
    assert.equal(await store.peek('a', 60_000), 0);
    assert.equal((await store.hit('a', 60_000)).hits, 1, 'a new window starts afresh');
    assert.equal(await store.sweep(), 1, 'the ended window of "b" is swept');
  });
});
