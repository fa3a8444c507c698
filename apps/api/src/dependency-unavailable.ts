import { isDatabaseUnreachable } from './db/client.ts';
import { DomainError } from './domain-error.ts';
import { IdentityProviderUnavailableError } from './identity/identity-provider.ts';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The portal cannot reach its database. Please try again in a minute.';
export const IDENTITY_UNAVAILABLE_MESSAGE = 'The sign-in service is unavailable. Please try again in a minute.';

/**
 * A dependency that is down or too slow is nobody's mistake and no bug: it becomes the 'unavailable'
 * refusal, so the caller learns to retry and nothing about the failure leaks. Undefined for anything else.
 * Domain code uses it too, where one failure is an answer among others (a bulk call's per-address result).
 */
export function asUnavailable(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error.kind === 'unavailable' ? error : undefined;
  if (error instanceof IdentityProviderUnavailableError) {
    return new DomainError('unavailable', IDENTITY_UNAVAILABLE_MESSAGE, 'identity-provider');
  }
  if (isDatabaseUnreachable(error)) return new DomainError('unavailable', DATABASE_UNAVAILABLE_MESSAGE, 'database');
  return undefined;
}
