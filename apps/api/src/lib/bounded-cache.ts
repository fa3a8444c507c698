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
 * The one in-memory cache of the API: capped by entries (and optionally by total size), least recently
 * used first out, with an optional time to live. A Map keeps insertion order and `get` re-inserts a hit,
 * so the first key is always the least recently used; `peek` reads without refreshing that order.
 */
export function createBoundedCache<V>(options: BoundedCacheOptions<V>) {
  const entries = new Map<string, { value: V; size: number; storedAtMs: number }>();
  const now = options.now ?? Date.now;
  const sizeOf = options.sizeOf ?? (() => 0);
  const maxEntries = options.maxEntries ?? Infinity;
  const maxSize = options.maxSize ?? Infinity;
  let totalSize = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalSize -= entry.size;
  }

  function live(key: string) {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (options.ttlMs !== undefined && now() - entry.storedAtMs >= options.ttlMs) {
      remove(key);
      return undefined;
    }
    return entry;
  }

  return {
    get(key: string): V | undefined {
      const entry = live(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    peek(key: string): V | undefined {
      return live(key)?.value;
    },
    set(key: string, value: V) {
      remove(key);
      const size = sizeOf(value);
      entries.set(key, { value, size, storedAtMs: now() });
      totalSize += size;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && totalSize <= maxSize) break;
        remove(oldest);
      }
    },
    delete: remove,
    /** Drops every entry the predicate picks, e.g. all tokens of one account. */
    deleteWhere(pick: (value: V) => boolean) {
      for (const [key, entry] of entries) if (pick(entry.value)) remove(key);
    },
    has: (key: string) => live(key) !== undefined,
  };
}

export type BoundedCache<V> = ReturnType<typeof createBoundedCache<V>>;
