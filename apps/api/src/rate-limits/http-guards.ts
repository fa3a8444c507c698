import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain-error.ts';
import { clientKey } from './client-key.ts';
import { rateLimited } from './rate-limited.ts';
import { BUSY_ADDRESS_DELAY_MS } from './rate-limits.ts';

export const ANONYMOUS_BUSY_MESSAGE =
  'The portal is answering too many requests from people who are not signed in right now. Please wait a few seconds and try again.';

/**
 * The calls anyone may make without signing in (lookup, register, activate) spend one allowance per client,
 * so the allowlist cannot be enumerated; signed-in, allowlisted callers are exempt. All of them together
 * also spend this instance's anonymous budget (anonymous-budget.ts), which a flood from very many addresses
 * runs out of long before any one address runs out of its allowance. With `perAddress`, an address asked
 * about more often than the allowance (from anywhere) is answered late instead of refused.
 * Decided in memory, with no database round trip: a refusal costs nothing but the answer (rate-limits.ts).
 * A preHandler: it runs after validation, so "A@x.com" and " a@x.com" are one address.
 */
export function limitUnauthenticated(options: { perAddress: boolean }) {
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    if (request.caller) return;
    const limits = request.server.domain.rateLimits;
    // Looked at first and taken last, all in this one turn: a call the budget refuses spends none of the
    // client's allowance, and one the client's allowance refuses spends none of the budget (else a single
    // address calling in a loop would use up everyone's budget).
    const busyMs = limits.anonymousBudget.roomNow();
    if (busyMs !== undefined) {
      throw new DomainError('rate-limited', ANONYMOUS_BUSY_MESSAGE, 'anonymous budget spent', {
        retryAfterSeconds: Math.max(1, Math.ceil(busyMs / 1000)),
      });
    }
    const waitMs = limits.anonymous.hitNow(clientKey(request.ip));
    if (waitMs !== undefined) throw rateLimited(waitMs);
    const place = limits.anonymousBudget.take();
    // The place is held until the answer has left (or the client went away), whatever the handler does.
    reply.raw.once('close', place.release);
    reply.raw.once('finish', place.release);
    const email = options.perAddress ? (request.params as { email?: string }).email : undefined;
    if (email && limits.address.hitNow(email) !== undefined) {
      // Waiting costs nothing, so the place goes back for the wait: else a few calls a second about one busy
      // address would hold every place and shut everyone else out. Such calls are still bounded by the rate.
      place.release();
      await sleep(BUSY_ADDRESS_DELAY_MS);
    }
  };
}
