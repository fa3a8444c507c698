import type { RateLimitStore } from './rate-limit-store.ts';

interface Tally {
  /** The fixed window this tally counts (its number since the epoch). */
  window: number;
  /** Every instance's hits, as the store last answered. */
  shared: number;
  /** Hits counted here and not yet sent. */
  pending: number;
  /** Hits on their way to the store. */
  sending: number;
  /** The first read of the shared count, while it is under way. */
  loading: Promise<void> | undefined;
}

export interface BatchedLimitOptions {
  /** Most keys remembered; beyond it the least recently started tally with nothing to send is dropped. */
  maxKeys?: number;
  now?: () => number;
}

/**
 * A fixed-window allowance for the download path, which must not wait for the database, let alone write to
 * it, on every request. The first use of a key in a window reads the shared count; from then on hits are
 * counted here and `flush` adds them to the store in one statement, learning every instance's total in the
 * same round trip. One instance counts exactly; N instances can together overshoot an allowance by what the
 * others counted since their last flush (one flush interval of downloads).
 */
export function createBatchedLimit(
  store: RateLimitStore,
  name: string,
  max: number,
  windowMs: number,
  options: BatchedLimitOptions = {},
) {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 50_000;
  const tallies = new Map<string, Tally>();
  let lastFlush: Promise<void> = Promise.resolve();

  const storeKey = (key: string) => `${name}:${key}`;
  const totalOf = (tally: Tally) => tally.shared + tally.pending + tally.sending;
  const windowEndMs = (tally: Tally) => (tally.window + 1) * windowMs;

  function forgetOldest() {
    for (const [key, tally] of tallies) {
      if (tallies.size < maxKeys) return;
      if (tally.pending === 0 && tally.sending === 0 && !tally.loading) tallies.delete(key);
    }
  }

  async function tallyOf(key: string): Promise<Tally> {
    const window = Math.floor(now() / windowMs);
    let tally = tallies.get(key);
    if (!tally || tally.window !== window) {
      if (!tally && tallies.size >= maxKeys) forgetOldest();
      const fresh: Tally = { window, shared: 0, pending: 0, sending: 0, loading: undefined };
      fresh.loading = store.peek(storeKey(key), windowMs).then(
        (hits) => {
          fresh.shared = hits;
          fresh.loading = undefined;
        },
        (error: unknown) => {
          // Not remembered: the next request reads again, once the database is back.
          if (tallies.get(key) === fresh) tallies.delete(key);
          throw error;
        },
      );
      tallies.set(key, fresh);
      tally = fresh;
    }
    if (tally.loading) await tally.loading;
    return tally;
  }

  async function send() {
    const window = Math.floor(now() / windowMs);
    const batch: { key: string; tally: Tally; amount: number }[] = [];
    for (const [key, tally] of tallies) {
      // An ended window's hits no longer limit anyone.
      if (tally.window !== window) {
        if (!tally.loading && tally.sending === 0) tallies.delete(key);
        continue;
      }
      if (tally.pending === 0 || tally.loading) continue;
      batch.push({ key, tally, amount: tally.pending });
      tally.sending += tally.pending;
      tally.pending = 0;
    }
    if (batch.length === 0) return;
    try {
      const counts = await store.hitMany(
        batch.map(({ key, amount }) => ({ key: storeKey(key), amount })),
        windowMs,
      );
      const hitsByKey = new Map(counts.map((count) => [count.key, count.hits]));
      for (const { key, tally, amount } of batch) {
        tally.sending -= amount;
        tally.shared = hitsByKey.get(storeKey(key)) ?? tally.shared + amount;
      }
    } catch (error) {
      // Kept for the next flush: an outage delays the shared count, it does not lose it.
      for (const { tally, amount } of batch) {
        tally.sending -= amount;
        tally.pending += amount;
      }
      throw error;
    }
  }

  return {
    max,
    /** Counts one hit; the wait (ms) when that goes beyond the allowance. */
    async hit(key: string): Promise<number | undefined> {
      const tally = await tallyOf(key);
      tally.pending += 1;
      return totalOf(tally) > max ? Math.max(windowEndMs(tally) - now(), 1_000) : undefined;
    },
    /** Without counting: the wait (ms) when the allowance is already spent. */
    async spentFor(key: string): Promise<number | undefined> {
      const tally = await tallyOf(key);
      return totalOf(tally) >= max ? Math.max(windowEndMs(tally) - now(), 1_000) : undefined;
    },
    /** Forgets everything counted here, unsent hits included: for a store that was emptied under it. */
    reset() {
      tallies.clear();
    },
    /** Sends what was counted here until now, after any flush still under way; rejects when the store does. */
    flush(): Promise<void> {
      lastFlush = lastFlush.catch(() => {}).then(send);
      return lastFlush;
    },
  };
}

export type BatchedLimit = ReturnType<typeof createBatchedLimit>;
