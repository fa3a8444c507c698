import { STATUS_OF_CODE, type ErrorCode } from '@portal/contract/error-codes';

/** The codes the domain refuses with; 'internal' is never a refusal, it is a bug. */
export type RefusalKind = Exclude<ErrorCode, 'internal'>;

/**
 * The one error the domain throws when it refuses something; its message is written for the person or
 * script that sees it. `reason` is a short machine-readable label for the audit log. It knows nothing of
 * HTTP beyond the status its code maps to, so the CLI and the routes share it.
 */
export class DomainError extends Error {
  readonly kind: RefusalKind;
  readonly reason: string | undefined;
  /** When a refused caller may try again (a rate limit's wait), in whole seconds: the Retry-After header. */
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: RefusalKind, message: string, reason?: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.kind = kind;
    this.reason = reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get statusCode(): (typeof STATUS_OF_CODE)[RefusalKind] {
    return STATUS_OF_CODE[this.kind];
  }
}
