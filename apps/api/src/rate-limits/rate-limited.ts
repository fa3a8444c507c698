import { DomainError } from '../domain-error.ts';

/** The refusal of a call over an allowance, with when to try again (the errors plugin sends it as Retry-After). */
export function rateLimited(waitMs: number): DomainError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new DomainError(
    'rate-limited',
    `Too many requests. Please wait ${seconds} seconds and try again.`,
    undefined,
    {
      retryAfterSeconds: seconds,
    },
  );
}
