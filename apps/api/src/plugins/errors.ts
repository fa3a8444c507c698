import type { ErrorBody } from '@portal/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnreachable } from '../db/client.ts';
import { IdentityProviderUnavailableError } from '../identity/identity-provider.ts';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The portal cannot reach its database. Please try again in a minute.';
export const IDENTITY_UNAVAILABLE_MESSAGE = 'The sign-in service is unavailable. Please try again in a minute.';

/** Why the portal refuses a request; each kind has one HTTP status, given here and nowhere else. */
const STATUS_OF_KIND = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'step-up-required': 403,
  'session-expired': 401,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'unsupported-media-type': 415,
  'rate-limited': 429,
  unavailable: 503,
} as const;

export type RefusalKind = keyof typeof STATUS_OF_KIND;

/** The `code` of an answer that is not a refusal the domain chose: framework errors, outages, bugs. */
function codeForStatus(status: number): string {
  const kind = (Object.keys(STATUS_OF_KIND) as RefusalKind[]).find((key) => STATUS_OF_KIND[key] === status);
  if (kind) return kind;
  if (status === 503) return 'unavailable';
  return status >= 500 ? 'internal' : 'invalid';
}

/**
 * The one way an error leaves the API: `{ message, code }`, plus the request id on a 5xx so the person who
 * sees it can quote it (the same id is in the X-Request-Id header and in every log line of the request).
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  const body: ErrorBody = { message, code: codeForStatus(status) };
  if (status >= 500) body.requestId = request.id;
  return reply.code(status).send(body);
}

/**
 * The one error the domain throws when it refuses something; its message is written for the person or
 * script that sees it. `reason` is a short machine-readable label for the audit log.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }

  get statusCode(): (typeof STATUS_OF_KIND)[RefusalKind] {
    return STATUS_OF_KIND[this.kind];
  }
}

/**
 * A dependency that is down or too slow is nobody's mistake and no bug: it becomes the 'unavailable'
 * refusal, so the caller learns to retry and nothing about the failure leaks. Undefined for anything else.
 */
export function asUnavailable(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error.kind === 'unavailable' ? error : undefined;
  if (error instanceof IdentityProviderUnavailableError) {
    return new DomainError('unavailable', IDENTITY_UNAVAILABLE_MESSAGE, 'identity-provider');
  }
  if (isDatabaseUnreachable(error)) return new DomainError('unavailable', DATABASE_UNAVAILABLE_MESSAGE, 'database');
  return undefined;
}

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
export function frameworkErrorHandler(
  error: { code?: string; statusCode?: number },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A value in this request path is too long: an e-mail address has at most 254 characters, a parcel code at most 64.'
      : 'The address of this request is not valid. Please check the link.';
  // Answered before the onRequest hooks run, so the id header is set here too.
  reply.header('x-request-id', request.id);
  return sendError(request, reply, error.statusCode ?? 400, message);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Where unexpected errors are reported besides the log (nothing happens without SENTRY_DSN). */
    reportError(error: unknown, request: FastifyRequest): void;
  }
}

/** Every failure leaves as `{ message, code }`; a 5xx says what to do, never what broke inside. */
export default fp<{ reportError?: (error: unknown, request: FastifyRequest) => void }>(
  async (app, options) => {
    app.decorate('reportError', options.reportError ?? (() => {}));
    app.setErrorHandler((error, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        return sendError(request, reply, 400, describeValidation(error));
      }
      const unavailable = asUnavailable(error);
      if (unavailable) {
        request.log.warn({ err: error }, `dependency unavailable: ${unavailable.reason ?? 'unknown'}`);
        return sendError(request, reply, 503, unavailable.message);
      }
      if (error instanceof DomainError) return sendError(request, reply, error.statusCode, error.message);
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
