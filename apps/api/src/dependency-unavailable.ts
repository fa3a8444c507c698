import { isDatabaseUnreachable } from './db/pool.ts';
import { DomainError } from './domain-error.ts';
import { IdentityProviderUnavailableError } from './identity/identity-provider.ts';
import { BlobStoreUnavailableError } from './blob-store/blob-store.ts';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The portal cannot reach its database. Please try again in a minute.';
export const IDENTITY_UNAVAILABLE_MESSAGE = 'The sign-in service is unavailable. Please try again in a minute.';
export const INVOICE_STORE_UNAVAILABLE_MESSAGE =
  'The portal cannot reach the store that keeps the invoice files. Please try again in a minute.';

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
  // Before the database's check, which looks through causes and would take the store's refused connection for its own.
  if (error instanceof BlobStoreUnavailableError) {
    return new DomainError('unavailable', INVOICE_STORE_UNAVAILABLE_MESSAGE, 'invoice-store');
  }
  if (isDatabaseUnreachable(error)) return new DomainError('unavailable', DATABASE_UNAVAILABLE_MESSAGE, 'database');
  return undefined;
}
