import { ApiError } from '@/lib/api-client';

/** The error raised, without any request, when the link carries no parcel code. */
export const MISSING_PARCEL_CODE = new Error('No parcel code in the link');

/** The spec's invoice error catalogue; the "Please contact" messages end with the configured support contact. */
export function invoiceErrorMessage(error: unknown, supportContact: string): string {
  const doubleCheck = 'Please double check your parcel code and try the link again';
  if (error === MISSING_PARCEL_CODE) return doubleCheck;
  const status = error instanceof ApiError ? error.status : 0;
  if (status === 401) return `You are not authorized to see the invoice. Please contact ${supportContact}.`;
  // 500 itself counts as a server error (ARCHITECTURE.md, "Deliberate readings"); 0 is no response at all.
  if (status >= 500 || status === 0) return `Application error. Please contact ${supportContact}.`;
  return doubleCheck;
}
