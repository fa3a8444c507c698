/**
 * What this instance spends, in all, on the calls anyone may make without signing in (lookup, register,
 * activate): at most `perSecond` of them started a second (a bucket that holds one second's worth, so a
 * burst that size is answered at once) and at most `concurrency` under way at a time. The per-client
 * allowances cannot stop a flood from tens of thousands of addresses that each make only a few calls; this
 * does, so that such a flood takes from the signed-in people no more than this budget's worth of the
 * process and its database. Decided in memory, synchronously, by this instance alone: a refusal costs no
 * database round trip, and nothing needs to be shared (each instance protects its own share of the work).
 */
export interface AnonymousBudget {
  readonly perSecond: number;
  readonly concurrency: number;
  /** The wait (ms) until there is room, or undefined when a call may start now. Takes nothing. */
  roomNow(): number | undefined;
  /**
   * Spends one call of the rate and holds one place until `release` (called once the answer is sent or
   * the connection is gone; later calls do nothing). Call it in the same turn as `roomNow` said there was room.
   */
  take(): { release(): void };
  /** Calls under way now: for tests and metrics. */
  inFlight(): number;
}

export function createAnonymousBudget(options: {
  perSecond: number;
  concurrency: number;
  now?: () => number;
}): AnonymousBudget {
  const { perSecond, concurrency } = options;
  const now = options.now ?? (() => performance.now());
  // A token bucket: full at start, refilled continuously at `perSecond`, holding at most one second's worth.
  let tokens = perSecond;
  let refilledAt = now();
  let inFlight = 0;

  function refill() {
    const at = now();
    tokens = Math.min(perSecond, tokens + ((at - refilledAt) / 1000) * perSecond);
    refilledAt = at;
  }

  return {
    perSecond,
    concurrency,
    roomNow() {
      refill();
      // A place frees when a call under way ends, which takes milliseconds; one second is the shortest
      // Retry-After there is.
      if (inFlight >= concurrency) return 1000;
      if (tokens < 1) return Math.ceil(((1 - tokens) / perSecond) * 1000);
      return undefined;
    },
    take() {
      refill();
      tokens -= 1;
      inFlight += 1;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          inFlight -= 1;
        },
      };
    },
    inFlight: () => inFlight,
  };
}
