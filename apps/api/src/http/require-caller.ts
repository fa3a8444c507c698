import type { FastifyRequest } from 'fastify';
import type { Caller } from '../plugins/authorization.ts';

/**
 * The signed-in caller of a route whose declared access needs one. The authorization hook has refused everyone
 * else before the handler runs, so a missing caller here is a route declared with the wrong access: a bug.
 */
export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error(`${request.method} ${request.url} reached its handler without a caller`);
  return request.caller;
}
