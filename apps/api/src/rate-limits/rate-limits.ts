import type { Config } from '../config.ts';
import { createBatchedLimit } from './batched-limit.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** How long a lookup or activation of an address that is asked about too often waits: slowed, never refused. */
export const BUSY_ADDRESS_DELAY_MS = 1_000;

/** How often the download path's allowances send what they counted: the most they lag behind other instances. */
export const DOWNLOAD_LIMIT_FLUSH_MS = 500;

/** A fixed-window allowance over the shared store: `hit` counts one call and answers the wait when over. */
function createLimit(store: RateLimitStore, name: string, max: number, windowMs: number) {
  return {
    max,
    async hit(key: string): Promise<number | undefined> {
      const { hits, resetAtMs } = await store.hit(`${name}:${key}`, windowMs);
      return hits > max ? Math.max(resetAtMs - Date.now(), 1_000) : undefined;
    },
    /** Without counting: the wait when the allowance is already spent. */
    async spentFor(key: string): Promise<number | undefined> {
      const hits = await store.peek(`${name}:${key}`, windowMs);
      return hits >= max ? Math.max(windowMs - (Date.now() % windowMs), 1_000) : undefined;
    },
  };
}

export function createRateLimits(
  store: RateLimitStore,
  limits: Config['rateLimits'],
  log: { warn(details: object, message: string): void },
) {
  const downloads = createBatchedLimit(store, 'downloads', limits.downloadsPerHour, HOUR_MS);
  const unknownParcels = createBatchedLimit(store, 'unknown-parcels', limits.unknownParcelsPerHour, HOUR_MS);
  const flushDownloadLimits = () =>
    Promise.all([downloads.flush(), unknownParcels.flush()]).then(
      () => undefined,
      (error: unknown) => log.warn({ err: error }, 'could not send download counts; they are kept for later'),
    );
  let timers: NodeJS.Timeout[] = [];
  return {
    store,
    /** Lookup, register and activate together, per client: one budget for everything anyone may call. */
    anonymous: createLimit(store, 'anonymous', limits.lookupsPerMinute, MINUTE_MS),
    /** Per address asked about: over it, answers are delayed, so nobody can lock a chosen person out. */
    address: createLimit(store, 'address', limits.lookupsPerMinute, MINUTE_MS),
    // Checked on every download: counted in this process and sent in batches (batched-limit.ts).
    downloads,
    unknownParcels,
    /** Sends the download path's counts twice a second, and sweeps ended windows once a minute. */
    start() {
      const sweep = () =>
        store.sweep().catch((error: unknown) => log.warn({ err: error }, 'could not sweep rate-limit windows'));
      timers = [setInterval(() => void flushDownloadLimits(), DOWNLOAD_LIMIT_FLUSH_MS), setInterval(sweep, MINUTE_MS)];
      for (const timer of timers) timer.unref();
    },
    /** Stops the timers and sends what is still counted. */
    async close() {
      for (const timer of timers) clearInterval(timer);
      timers = [];
      await flushDownloadLimits();
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
