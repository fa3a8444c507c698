import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  asUnavailable,
  DATABASE_UNAVAILABLE_MESSAGE,
  IDENTITY_UNAVAILABLE_MESSAGE,
  INVOICE_STORE_UNAVAILABLE_MESSAGE,
} from '../dependency-unavailable.ts';
import { DomainError } from '../domain-error.ts';
import { sendError } from '../http/send-error.ts';

// Domain code classifies dependency failures too; kept importable from here for the HTTP layer and its tests.
export { asUnavailable, DATABASE_UNAVAILABLE_MESSAGE, IDENTITY_UNAVAILABLE_MESSAGE, INVOICE_STORE_UNAVAILABLE_MESSAGE };

function describeValidation(error: {
  validation: { instancePath?: string; message?: string }[];
  validationContext?: string;
}) {
  const first = error.validation[0];
  // A problem with the whole body (an unknown key, no body at all) has the root path "/": name the part instead.
  const path = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  const where = path || error.validationContext;
  return `Invalid ${where ?? 'request'}: ${first?.message ?? 'not accepted'}`;
}

/**
 * Fastify answers some malformed requests before routing (a path parameter over `maxParamLength`, an
 * undecodable URL) with its own body; this gives them the `{ message }` shape too, without echoing the input.
 */
/** The longest path parameter the router takes: an e-mail address (254 characters) with room to spare. */
export const MAX_PATH_PARAM_LENGTH = 320;
export const PATH_TOO_LONG_MESSAGE =
  'A value in this request path is too long: an e-mail address has at most 254 characters, a parcel code at most 64.';

export function frameworkErrorHandler(
  error: { code?: string; statusCode?: number },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? PATH_TOO_LONG_MESSAGE
      : 'The address of this request is not valid. Please check the link.';
  // Answered before the onRequest hooks run, so the id header (and, while draining, the close) is set here too.
  reply.header('x-request-id', request.id);
  if (request.server.readiness?.draining) reply.header('connection', 'close');
  return sendError(request, reply, error.statusCode ?? 400, message);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where unexpected errors are reported besides the log (nothing happens without SENTRY_DSN). */
    reportError(error: unknown, request: FastifyRequest): void;
  }
}

/** A failover or a restart takes seconds; clients (and people) retrying sooner only add load. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Every failure leaves as `{ message, code }`; a 5xx says what to do, never what broke inside. */
export default fp<{ reportError?: (error: unknown, request: FastifyRequest) => void }>(
  async (app, options) => {
    app.decorate('reportError', options.reportError ?? (() => {}));
    app.setErrorHandler((error, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        return sendError(request, reply, 400, describeValidation(error));
      }
      if (error instanceof DomainError && error.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(error.retryAfterSeconds));
      }
      const unavailable = asUnavailable(error);
      if (unavailable) {
        // A dependency comes back by itself (a restart, a failover's promotion): say when trying again is worth it.
        if (!reply.hasHeader('retry-after')) reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
        request.log.warn({ err: error }, `dependency unavailable: ${unavailable.reason ?? 'unknown'}`);
        return sendError(request, reply, 503, unavailable.message);
      }
      if (error instanceof DomainError) return sendError(request, reply, error.statusCode, error.message, error.kind);
      const status = (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return sendError(request, reply, status, (error as Error).message);
      }
      request.log.error({ err: error }, 'unhandled error');
      app.reportError(error, request);
      return sendError(request, reply, 500, 'Something went wrong on our side. Please try again later.');
    });

    app.setNotFoundHandler((request, reply) =>
      sendError(request, reply, 404, `No such endpoint: ${request.method} ${request.url.split('?')[0]}`),
    );
  },
  { name: 'errors' },
);
