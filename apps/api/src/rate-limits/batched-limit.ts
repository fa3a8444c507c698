import type { RateLimitStore } from './rate-limit-store.ts';

interface Tally {
  /** The fixed window this tally counts (its number since the epoch). */
  window: number;
  /** Every instance's hits, as the store last answered. */
  shared: number;
  /** Whether `shared` was read or answered by the store in this window (else it is this instance's guess, 0). */
  known: boolean;
  /** Hits counted here and not yet sent. */
  pending: number;
  /** Hits on their way to the store. */
  sending: number;
  /** Attempts under way that count as hits until they are settled (`reserve`). */
  reserved: number;
  /** The first read of the shared count, while it is under way. */
  loading: Promise<void> | undefined;
  /**
   * Hits were sent, so the next flush asks the store once more even with nothing to add: what the other
   * instances sent after this one is learnt within two flushes of this instance's last hit, not at its next.
   */
  recheck: boolean;
}

/** One attempt's hold on a unit of an allowance (`reserve`). */
export interface Reservation {
  waitMs: number | undefined;
  settle(counts: boolean): void;
}

export interface BatchedLimitOptions {
  /**
   * Most keys remembered, the least recently used dropped first: one with nothing to send if there is one
   * among the oldest, else the oldest anyway (its unsent hits are lost: memory stays bounded under a flood).
   */
  maxKeys?: number;
  /**
   * Decide a key's first hits without reading the store: until the first flush answers the shared count,
   * this instance allows its share of the allowance, `max / sharedBy` (the number of instances). For the
   * calls anyone may make, whose every refusal must cost no database round trip at all.
   */
  sharedBy?: number;
  now?: () => number;
}

/** How many of the least recently used tallies are looked at for one with nothing to send. */
const EVICTION_SCAN = 64;

/**
 * A fixed-window allowance that does not wait for the database, let alone write to it, on every request.
 * The first use of a key in a window reads the shared count (or, with `sharedBy`, assumes this instance's
 * share of it); from then on hits are counted here and `flush` adds them to the store in one statement,
 * learning every instance's total in the same round trip, and once more on the flush after its last send. A
 * refused hit is not counted: it changes no answer, so a flood of refusals has nothing to send. One instance
 * counts exactly; N instances can together overshoot an allowance by what the others counted since their
 * last flush (one flush interval).
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
  const sharedBy = options.sharedBy;
  const tallies = new Map<string, Tally>();
  // The key used last, whose tally is already last in the map's order: deleting and setting it again on every
  // call (one person's downloads in a row) only churned the map, a new table every few calls.
  let newest: string | undefined;
  let lastFlush: Promise<void> = Promise.resolve();

  const storeKey = (key: string) => `${name}:${key}`;
  const totalOf = (tally: Tally) => tally.shared + tally.pending + tally.sending + tally.reserved;
  const windowEndMs = (tally: Tally) => (tally.window + 1) * windowMs;
  const waitOf = (tally: Tally) => Math.max(windowEndMs(tally) - now(), 1_000);
  /** What this instance may allow: all of it once the shared count is known, else its share. */
  const allowanceOf = (tally: Tally) => (tally.known || !sharedBy ? max : Math.max(1, Math.ceil(max / sharedBy)));
  const idle = (tally: Tally) => tally.pending === 0 && tally.sending === 0 && tally.reserved === 0 && !tally.loading;

  function makeRoom() {
    let scanned = 0;
    for (const [key, tally] of tallies) {
      if (tallies.size < maxKeys) return;
      if (idle(tally)) tallies.delete(key);
      if (++scanned >= EVICTION_SCAN) break;
    }
    // Every old one has something to send: bounded memory comes first, and its unsent hits are lost.
    for (const key of tallies.keys()) {
      if (tallies.size < maxKeys) return;
      tallies.delete(key);
    }
  }

  /** The key's tally for the current window, most recently used from now on (`loading` while it reads). */
  function currentTally(key: string): Tally {
    const window = Math.floor(now() / windowMs);
    const tally = tallies.get(key);
    if (tally && tally.window === window) {
      if (key !== newest) {
        tallies.delete(key);
        tallies.set(key, tally);
        newest = key;
      }
      return tally;
    }
    if (!tally && tallies.size >= maxKeys) makeRoom();
    const fresh: Tally = {
      window,
      shared: 0,
      known: false,
      pending: 0,
      sending: 0,
      reserved: 0,
      loading: undefined,
      recheck: false,
    };
    if (!sharedBy) {
      fresh.loading = store.peek(storeKey(key), windowMs).then(
        (hits) => {
          fresh.shared = hits;
          fresh.known = true;
          fresh.loading = undefined;
        },
        (error: unknown) => {
          // Not remembered: the next request reads again, once the database is back.
          if (tallies.get(key) === fresh) tallies.delete(key);
          throw error;
        },
      );
    }
    tallies.delete(key);
    tallies.set(key, fresh);
    newest = key;
    return fresh;
  }

  /**
   * `decide` on the key's tally: there and then once its shared count is known (most calls: no promise, no
   * microtask), else once the first read is in. The download path makes two such calls per download.
   */
  function withTally<T>(key: string, decide: (tally: Tally) => T): T | Promise<T> {
    const tally = currentTally(key);
    return tally.loading ? tally.loading.then(() => decide(tally)) : decide(tally);
  }

  /** Counts `count` hits when all are within the allowance; the wait (ms) when not (and then counts nothing). */
  function take(tally: Tally, count = 1): number | undefined {
    if (totalOf(tally) + count > allowanceOf(tally)) return waitOf(tally);
    tally.pending += count;
    return undefined;
  }

  const takeOne = (tally: Tally) => take(tally);
  const spentWait = (tally: Tally) => (totalOf(tally) >= allowanceOf(tally) ? waitOf(tally) : undefined);

  function reserveOne(tally: Tally): Reservation {
    if (totalOf(tally) >= allowanceOf(tally)) return { waitMs: waitOf(tally), settle: () => {} };
    tally.reserved += 1;
    let settled = false;
    return {
      waitMs: undefined,
      settle(counts) {
        if (settled) return;
        settled = true;
        tally.reserved -= 1;
        if (counts) tally.pending += 1;
      },
    };
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
      if (tally.loading || (tally.pending === 0 && !tally.recheck)) continue;
      batch.push({ key, tally, amount: tally.pending });
      tally.recheck = tally.pending > 0;
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
        const hits = hitsByKey.get(storeKey(key));
        tally.shared = hits ?? tally.shared + amount;
        tally.known ||= hits !== undefined;
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
    /** The length of a window of this allowance, in milliseconds. */
    windowMs,
    /**
     * Counts one hit; the wait (ms) when it goes beyond the allowance (then nothing is counted). Answered
     * without a promise once the key's shared count is known in this window, so callers `await` it.
     */
    hit(key: string): number | undefined | Promise<number | undefined> {
      return withTally(key, takeOne);
    },
    /**
     * Counts `count` hits at once, all or none: a ZIP of 40 invoices spends 40 downloads, and is refused
     * whole (with the wait) when fewer are left, rather than cut short.
     */
    hitMany(key: string, count: number): number | undefined | Promise<number | undefined> {
      return withTally(key, (tally) => take(tally, count));
    },
    /** What is left of the allowance in this window, as far as this instance knows. */
    leftFor(key: string): number | Promise<number> {
      return withTally(key, (tally) => Math.max(0, allowanceOf(tally) - totalOf(tally)));
    },
    /**
     * The same, decided in memory there and then, for a limit made with `sharedBy` (which never reads the
     * store): no promise, no database, whatever the answer.
     */
    hitNow(key: string): number | undefined {
      if (!sharedBy) throw new Error(`${name}: hitNow needs sharedBy (it never waits for the store)`);
      return take(currentTally(key));
    },
    /** Without counting: the wait (ms) when the allowance is already spent. */
    spentFor(key: string): number | undefined | Promise<number | undefined> {
      return withTally(key, spentWait);
    },
    /**
     * Holds one hit while an attempt whose outcome decides whether it counts is under way, so concurrent
     * attempts cannot all pass a check made before any of them counted. `settle(true)` counts it, `false`
     * gives it back; only the first settle counts.
     */
    reserve(key: string): Reservation | Promise<Reservation> {
      return withTally(key, reserveOne);
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
