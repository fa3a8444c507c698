import { LRUCache } from 'lru-cache';

export interface BoundedCacheOptions<V> {
  /** Most entries kept, the least recently used going first; unbounded when absent (then give maxSize). */
  maxEntries?: number;
  /** Most total size kept, as measured by `sizeOf`; unbounded when absent. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** Entries older than this are never returned; absent, they live until evicted. */
  ttlMs?: number;
  now?: () => number;
}

/**
 * The one in-memory cache of the API, over `lru-cache`: capped by entries (and optionally by total size),
 * least recently used first out, with an optional time to live; `peek` reads without refreshing the order.
 * `ttlResolution: 0` reads the clock at each lookup: the library's default caches it for a millisecond with
 * a timer per read, which costs more than it saves on the request path.
 */
export function createBoundedCache<V extends NonNullable<unknown>>(options: BoundedCacheOptions<V>) {
  const sizeOf = options.sizeOf;
  // Every caller gives maxEntries or maxSize, which the library's option types cannot see through the spreads.
  const cache = new LRUCache<string, V>({
    ...(options.maxEntries !== undefined ? { max: options.maxEntries } : {}),
    ...(options.maxSize !== undefined && sizeOf
      ? { maxSize: options.maxSize, sizeCalculation: (value: V) => Math.max(1, sizeOf(value)) }
      : {}),
    ...(options.ttlMs !== undefined ? { ttl: options.ttlMs, ttlResolution: 0 } : {}),
    ...(options.now ? { perf: { now: options.now } } : {}),
  } as LRUCache.Options<string, V, unknown>);

  return {
    get: (key: string): V | undefined => cache.get(key),
    peek: (key: string): V | undefined => cache.peek(key),
    set(key: string, value: V) {
      cache.set(key, value);
    },
    delete(key: string) {
      cache.delete(key);
    },
    /** Drops every entry the predicate picks, e.g. all tokens of one account. */
    deleteWhere(pick: (value: V) => boolean) {
      const picked = [...cache.entries()].filter(([, value]) => pick(value)).map(([key]) => key);
      for (const key of picked) cache.delete(key);
    },
    has: (key: string) => cache.has(key),
  };
}

export type BoundedCache<V extends NonNullable<unknown>> = ReturnType<typeof createBoundedCache<V>>;
