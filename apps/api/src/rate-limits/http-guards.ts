import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { clientKey } from './client-key.ts';
import { rateLimited } from './rate-limited.ts';
import { BUSY_ADDRESS_DELAY_MS } from './rate-limits.ts';

/**
 * The calls anyone may make without signing in (lookup, register, activate) spend one allowance per client,
 * so the allowlist cannot be enumerated; signed-in, allowlisted callers are exempt. With `perAddress`, an
 * address asked about more often than the allowance (from anywhere) is answered late instead of refused.
 * Decided in memory, with no database round trip: a refusal costs nothing but the answer (rate-limits.ts).
 * A preHandler: it runs after validation, so "A@x.com" and " a@x.com" are one address.
 */
export function limitUnauthenticated(options: { perAddress: boolean }) {
  return async function rateLimit(request: FastifyRequest) {
    if (request.caller) return;
    const limits = request.server.domain.rateLimits;
    const waitMs = limits.anonymous.hitNow(clientKey(request.ip));
    if (waitMs !== undefined) throw rateLimited(waitMs);
    const email = options.perAddress ? (request.params as { email?: string }).email : undefined;
    if (email && limits.address.hitNow(email) !== undefined) await sleep(BUSY_ADDRESS_DELAY_MS);
  };
}
