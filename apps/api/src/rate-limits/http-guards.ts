import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain-error.ts';
import { clientKey } from './client-key.ts';
import { BUSY_ADDRESS_DELAY_MS } from './rate-limits.ts';

export function tooManyRequests(reply: FastifyReply, waitMs: number): DomainError {
  const seconds = Math.ceil(waitMs / 1000);
  reply.header('retry-after', String(seconds));
  return new DomainError('rate-limited', `Too many requests. Please wait ${seconds} seconds and try again.`);
}

/**
 * The calls anyone may make without signing in (lookup, register, activate) spend one allowance per client,
 * so the allowlist cannot be enumerated; signed-in, allowlisted callers are exempt. With `perAddress`, an
 * address asked about more often than the allowance (from anywhere) is answered late instead of refused.
 * Decided in memory, with no database round trip: a refusal costs nothing but the answer (rate-limits.ts).
 * A preHandler: it runs after validation, so "A@x.com" and " a@x.com" are one address.
 */
export function limitUnauthenticated(options: { perAddress: boolean }) {
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    if (request.caller) return;
    const limits = request.server.domain.rateLimits;
    const waitMs = limits.anonymous.hitNow(clientKey(request.ip));
    if (waitMs !== undefined) throw tooManyRequests(reply, waitMs);
    const email = options.perAddress ? (request.params as { email?: string }).email : undefined;
    if (email && limits.address.hitNow(email) !== undefined) await sleep(BUSY_ADDRESS_DELAY_MS);
  };
}
