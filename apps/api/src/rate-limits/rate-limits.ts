import type { Config } from '../config.ts';
import { createAnonymousBudget } from './anonymous-budget.ts';
import { createBatchedLimit } from './batched-limit.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** How long a lookup or activation of an address that is asked about too often waits: slowed, never refused. */
export const BUSY_ADDRESS_DELAY_MS = 1_000;

/** How often the in-memory allowances send what they counted: the most they lag behind other instances. */
export const LIMIT_FLUSH_MS = 500;

/**
 * Every allowance of the portal. Each is decided in this process's memory and shared with the other
 * instances in batches (batched-limit.ts): one statement every half second carries every key's new hits and
 * answers every instance's totals. The calls anyone may make without signing in never touch the database to
 * be decided (`sharedBy`: until the totals come back, an instance allows its share), so a refused call costs
 * no commit at all, and an answered one none beyond what the call itself reads.
 */
export function createRateLimits(
  store: RateLimitStore,
  limits: Config['rateLimits'],
  log: { warn(details: object, message: string): void },
  options: { instances?: number } = {},
) {
  const anonymousOptions = { sharedBy: options.instances ?? 1 };
  const all = {
    /** Lookup, register and activate together, per client: one budget for everything anyone may call. */
    anonymous: createBatchedLimit(store, 'anonymous', limits.lookupsPerMinute, MINUTE_MS, anonymousOptions),
    /** Per address asked about: over it, answers are delayed, so nobody can lock a chosen person out. */
    address: createBatchedLimit(store, 'address', limits.lookupsPerMinute, MINUTE_MS, anonymousOptions),
    downloads: createBatchedLimit(store, 'downloads', limits.downloadsPerHour, HOUR_MS),
    unknownParcels: createBatchedLimit(store, 'unknown-parcels', limits.unknownParcelsPerHour, HOUR_MS),
    /**
     * Passkey ceremony calls per administrator (options and answers alike): a person needs a handful an hour,
     * so a script hammering them with a stolen password is stopped here, before any challenge is written.
     */
    passkeyCeremonies: createBatchedLimit(
      store,
      'passkey-ceremonies',
      limits.passkeyCeremoniesPerMinute,
      MINUTE_MS,
      anonymousOptions,
    ),
    /**
     * The company directory's SCIM calls, one allowance for the token (all instances): its own, so a first
     * sync spends nothing of what people who are not signed in may use, and a runaway sync stops here.
     */
    scim: createBatchedLimit(store, 'scim', limits.scimPerMinute, MINUTE_MS, anonymousOptions),
    /**
     * Calls with a wrong SCIM token (or none), per client address: beyond it every SCIM call from there is
     * refused until the window ends, the right token's included, so guessing stops there.
     */
    scimRefusals: createBatchedLimit(store, 'scim-refusals', limits.scimRefusalsPerMinute, MINUTE_MS, anonymousOptions),
    /** Invoice searches per finance user (all instances): a person refines a few a minute, a harvest many. */
    invoiceSearches: createBatchedLimit(store, 'invoice-searches', limits.invoiceSearchesPerMinute, MINUTE_MS),
    /**
     * Invoices put into ZIPs per person and UTC day (all instances): the ceiling on what one sign-in, however
     * it was obtained, can carry away in a day; the hourly download allowance only paces it.
     */
    invoiceExports: createBatchedLimit(store, 'invoice-exports', limits.invoiceExportsPerDay, DAY_MS),
  };
  const flushAll = () =>
    Promise.all(Object.values(all).map((limit) => limit.flush())).then(
      () => undefined,
      (error: unknown) => log.warn({ err: error }, 'could not send rate-limit counts; they are kept for later'),
    );
  return {
    store,
    ...all,
    /** This instance's rate and concurrency for every call made without signing in, from anyone at all. */
    anonymousBudget: createAnonymousBudget({
      perSecond: limits.anonymousPerSecond,
      concurrency: limits.anonymousConcurrency,
    }),
    /** Forgets the ended windows (the background registry runs it once a minute). */
    sweep: () =>
      store.sweep().catch((error: unknown) => log.warn({ err: error }, 'could not sweep rate-limit windows')),
    /**
     * Sends what was counted until now: every LIMIT_FLUSH_MS from the background registry's flush loop, and in
     * tests (a store that was just emptied by hand goes with `reset`). Never throws: counts not sent are kept.
     */
    flush: flushAll,
    /** Forgets everything counted in memory: for a store that was emptied under it. */
    reset() {
      for (const limit of Object.values(all)) limit.reset();
    },
    /** Sends what is still counted. */
    close: flushAll,
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
