import type { ErrorCode } from '@portal/contract';

/** The HTTP status of each code; given here and nowhere else. */
export const STATUS_OF_CODE = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'unsupported-media-type': 415,
  'rate-limited': 429,
  internal: 500,
  unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

/** The codes the domain refuses with; 'internal' is never a refusal, it is a bug. */
export type RefusalKind = Exclude<ErrorCode, 'internal'>;

/** The code of an answer the domain did not choose (framework errors, bugs), from its status. */
export function codeForStatus(status: number): ErrorCode {
  const code = (Object.keys(STATUS_OF_CODE) as ErrorCode[]).find((key) => STATUS_OF_CODE[key] === status);
  if (code) return code;
  return status >= 500 ? 'internal' : 'invalid';
}

/**
 * The one error the domain throws when it refuses something; its message is written for the person or
 * script that sees it. `reason` is a short machine-readable label for the audit log. It knows nothing of
 * HTTP beyond the status its code maps to, so the CLI and the routes share it.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }

  get statusCode(): (typeof STATUS_OF_CODE)[RefusalKind] {
    return STATUS_OF_CODE[this.kind];
  }
}
