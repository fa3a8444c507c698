import type { FastifyReply, FastifyRequest } from 'fastify';
import { createBoundedCache } from '../lib/bounded-cache.ts';
import { DomainError } from '../plugins/errors.ts';

export type LimitKey = 'ip' | 'email';

/**
 * Fixed one-minute windows per key, in memory (one API process). A window is stored once, when it opens,
 * and read with `peek`, so the oldest opened is the first evicted when a flood of new keys arrives.
 */
export function createWindowCounter(options: { max: number; windowMs: number; maxKeys?: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const windows = createBoundedCache<{ count: number; resetAt: number }>({
    maxEntries: options.maxKeys ?? 50_000,
    ttlMs: options.windowMs,
    now,
  });

  return {
    /** Counts one call; answers how many ms the caller must wait when the key is over its allowance. */
    hit(key: string): number | undefined {
      const at = now();
      let window = windows.peek(key);
      if (!window) {
        window = { count: 0, resetAt: at + options.windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return window.count > options.max ? window.resetAt - at : undefined;
    },
  };
}

/**
 * Limits calls anyone may make without signing in (lookup, register, activate) per client address and/or
 * per e-mail in the path, so the allowlist cannot be enumerated or its flags flipped in bulk. Signed-in,
 * allowlisted callers are exempt: they are already known. Each call of this function makes its own
 * counters, so one route's traffic never spends another's allowance.
 *
 * Why not @fastify/rate-limit: it runs only the first of several limiters on a request (one shared
 * "already ran" flag), so a per-e-mail limit behind a per-client one silently never counted.
 * Use it as a preHandler: it then runs after validation, so "A@x.com" and " a@x.com" share one e-mail key.
 */
export function limitUnauthenticated(options: { perMinute: number; keys: LimitKey[] }) {
  const counters = options.keys.map((key) => ({
    key,
    counter: createWindowCounter({ max: options.perMinute, windowMs: 60_000 }),
  }));
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    if (request.caller) return;
    let waitMs = 0;
    for (const { key, counter } of counters) {
      const value = key === 'ip' ? request.ip : ((request.params as { email?: string }).email ?? '');
      waitMs = Math.max(waitMs, counter.hit(value) ?? 0);
    }
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      reply.header('retry-after', String(seconds));
      throw new DomainError('rate-limited', `Too many requests. Please wait ${seconds} seconds and try again.`);
    }
  };
}
