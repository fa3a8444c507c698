import { ApiError } from '@/lib/api-client';

export const DOUBLE_CHECK_MESSAGE = 'Please double check your parcel code and try the link again';

/** The spec's invoice error catalogue; the "Please contact" messages end with the configured support contact. */
export function invoiceErrorMessage(error: unknown, supportContact: string): string {
  const status = error instanceof ApiError ? error.status : 0;
  if (status === 401) return `You are not authorized to see the invoice. Please contact ${supportContact}.`;
  // 500 itself counts as a server error (ARCHITECTURE.md, "Deliberate readings"); 0 is no response at all.
  if (status >= 500 || status === 0) return `Application error. Please contact ${supportContact}.`;
  return DOUBLE_CHECK_MESSAGE;
}
