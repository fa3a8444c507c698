import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { DomainError } from '../plugins/errors.ts';
import { createBatchedLimit } from './batched-limit.ts';
import { clientKey } from './client-key.ts';
import { createRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';

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

export function createRateLimits(store: RateLimitStore, limits: Config['rateLimits']) {
  return {
    store,
    /** Lookup, register and activate together, per client: one budget for everything anyone may call. */
    anonymous: createLimit(store, 'anonymous', limits.lookupsPerMinute, MINUTE_MS),
    /** Per address asked about: over it, answers are delayed, so nobody can lock a chosen person out. */
    address: createLimit(store, 'address', limits.lookupsPerMinute, MINUTE_MS),
    // Checked on every download: counted in this process and sent in batches (batched-limit.ts).
    downloads: createBatchedLimit(store, 'downloads', limits.downloadsPerHour, HOUR_MS),
    unknownParcels: createBatchedLimit(store, 'unknown-parcels', limits.unknownParcelsPerHour, HOUR_MS),
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

export function tooManyRequests(reply: FastifyReply, waitMs: number): DomainError {
  const seconds = Math.ceil(waitMs / 1000);
  reply.header('retry-after', String(seconds));
  return new DomainError('rate-limited', `Too many requests. Please wait ${seconds} seconds and try again.`);
}

/**
 * The calls anyone may make without signing in (lookup, register, activate) spend one allowance per client,
 * so the allowlist cannot be enumerated; signed-in, allowlisted callers are exempt. With `perAddress`, an
 * address asked about more often than the allowance (from anywhere) is answered late instead of refused.
 * A preHandler: it runs after validation, so "A@x.com" and " a@x.com" are one address.
 */
export function limitUnauthenticated(options: { perAddress: boolean }) {
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    if (request.caller) return;
    const limits = request.server.rateLimits;
    const email = options.perAddress ? (request.params as { email?: string }).email : undefined;
    const [waitMs, addressWaitMs] = await Promise.all([
      limits.anonymous.hit(clientKey(request.ip)),
      email ? limits.address.hit(email) : undefined,
    ]);
    if (waitMs !== undefined) throw tooManyRequests(reply, waitMs);
    if (addressWaitMs !== undefined) await sleep(BUSY_ADDRESS_DELAY_MS);
  };
}

/**
 * The shared limits on the app, the download path's counts sent twice a second (and at close), and a sweep
 * of ended windows once a minute.
 */
export const rateLimitsPlugin = fp<{ limits: Config['rateLimits'] }>(
  async (app, options) => {
    const store = createRateLimitStore(app.database.db);
    const limits = createRateLimits(store, options.limits);
    app.decorate('rateLimits', limits);
    const flushDownloadLimits = () =>
      Promise.all([limits.downloads.flush(), limits.unknownParcels.flush()]).then(
        () => undefined,
        (error: unknown) => app.log.warn({ err: error }, 'could not send download counts; they are kept for later'),
      );
    const flusher = setInterval(() => void flushDownloadLimits(), DOWNLOAD_LIMIT_FLUSH_MS);
    flusher.unref();
    const sweeper = setInterval(() => {
      store.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'could not sweep rate-limit windows'));
    }, MINUTE_MS);
    sweeper.unref();
    app.addHook('onClose', async () => {
      clearInterval(flusher);
      clearInterval(sweeper);
      await flushDownloadLimits();
    });
  },
  { name: 'rate-limits', dependencies: ['services'] },
);
