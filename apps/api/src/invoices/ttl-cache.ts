/** A small map whose entries expire, for lookups that may be a moment stale but are asked for constantly. */
export function createTtlCache<V>(options: { ttlMs: number; maxEntries: number; now?: () => number }) {
  const entries = new Map<string, { value: V; expiresAtMs: number }>();
  const now = options.now ?? Date.now;
  return {
    get(key: string): V | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAtMs > now()) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key: string, value: V) {
      entries.delete(key);
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, expiresAtMs: now() + options.ttlMs });
    },
    delete(key: string) {
      entries.delete(key);
    },
  };
}
