import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBoundedCache } from './bounded-cache.ts';

describe('createBoundedCache', () => {
  it('keeps at most maxEntries, dropping the least recently used; peek does not count as a use', () => {
    const cache = createBoundedCache<number>({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3);
    assert.equal(cache.peek('b'), undefined, '"b" was the least recently used');
    assert.equal(cache.peek('a'), 1);
    cache.set('d', 4);
    assert.equal(cache.peek('a'), undefined, 'a peek left "a" the oldest');
    assert.deepEqual([cache.peek('c'), cache.peek('d')], [3, 4]);
  });

  it('keeps the total size under maxSize', () => {
    const cache = createBoundedCache<Buffer>({ maxSize: 10, sizeOf: (bytes) => bytes.length });
    cache.set('a', Buffer.alloc(4));
    cache.set('b', Buffer.alloc(4));
    cache.set('b', Buffer.alloc(5));
    assert.equal(cache.has('a'), true, 'replacing "b" counts its new size only');
    cache.set('c', Buffer.alloc(3));
    assert.equal(cache.has('a'), false);
    assert.equal(cache.has('b'), true);
    assert.equal(cache.has('c'), true);
  });

  it('forgets entries older than ttlMs', () => {
    let at = 5_000;
    const cache = createBoundedCache<string>({ maxEntries: 10, ttlMs: 100, now: () => at });
    cache.set('a', 'x');
    at = 5_100;
    assert.equal(cache.get('a'), 'x', 'as old as ttlMs, not older');
    at = 5_101;
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.has('a'), false);
  });

  it('deletes one key, or every entry a predicate picks', () => {
    const cache = createBoundedCache<{ uid: string }>({ maxEntries: 10 });
    cache.set('t1', { uid: 'u1' });
    cache.set('t2', { uid: 'u1' });
    cache.set('t3', { uid: 'u2' });
    cache.deleteWhere((token) => token.uid === 'u1');
    assert.deepEqual([cache.has('t1'), cache.has('t2'), cache.has('t3')], [false, false, true]);
    cache.delete('t3');
    assert.equal(cache.has('t3'), false);
  });
});
