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
 * A preHandler: it runs after validation, so "A@x.com" and " a@x.com" are one address.
 */
export function limitUnauthenticated(options: { perAddress: boolean }) {
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    if (request.caller) return;
    const limits = request.server.domain.rateLimits;
    const email = options.perAddress ? (request.params as { email?: string }).email : undefined;
    const [waitMs, addressWaitMs] = await Promise.all([
      limits.anonymous.hit(clientKey(request.ip)),
      email ? limits.address.hit(email) : undefined,
    ]);
    if (waitMs !== undefined) throw tooManyRequests(reply, waitMs);
    if (addressWaitMs !== undefined) await sleep(BUSY_ADDRESS_DELAY_MS);
  };
}
