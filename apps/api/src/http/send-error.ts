import type { ErrorBody } from '@portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { codeForStatus } from '@portal/contract/error-codes';

/**
 * The one way an error leaves the API: `{ message, code }`, plus the request id on a 5xx so the person who
 * sees it can quote it (the same id is in the X-Request-Id header and in every log line of the request).
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  const body: ErrorBody = { message, code: codeForStatus(status) };
  if (status >= 500) body.requestId = request.id;
  return reply.code(status).send(body);
}
