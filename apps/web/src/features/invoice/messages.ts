import { errorCodeOf } from '@/lib/api-client';

/** Every sentence the invoice screen shows, kept together; the spec's are word for word. */

export const NO_PARCEL_CODE_HINT =
  'Open the invoice link you were sent to see an invoice here, or type its parcel code.';
export const TRY_ANOTHER_CODE_HINT = 'Check the parcel code, or type another one:';
export const INVOICE_NOT_SHOWN_MESSAGE = 'The invoice could not be shown.';
export const NO_INVOICE_DATA_MESSAGE = 'No invoice data found.';
export const PAGES_NOT_DRAWN_MESSAGE =
  'This browser cannot show the invoice inside the page. Open it in your PDF viewer or download it.';
export const invoicePageLabel = (parcelCode: string, page: number, count: number) =>
  `Invoice ${parcelCode}, page ${page} of ${count}`;

/** The error raised, without any request, when the link carries no parcel code. */
export const MISSING_PARCEL_CODE = new Error('No parcel code in the link');

/** The spec's invoice error catalogue; the "Please contact" messages end with the configured support contact. */
export function invoiceErrorMessage(error: unknown, supportContact: string): string {
  const doubleCheck = 'Please double check your parcel code and try the link again';
  if (error === MISSING_PARCEL_CODE) return doubleCheck;
  switch (errorCodeOf(error)) {
    case 'unauthenticated': // status 401
    case 'sso-link-required': // 401 too: a company sign-in the login screen links; refused until then
    case 'session-expired': // 401 too; the app signs the person out at once, so this shows only for a moment
      return `You are not authorized to see the invoice. Please contact ${supportContact}.`;
    // Every 5xx (500 itself too: docs/product/deliberate-readings.md) and no response at all.
    case 'internal':
    case 'unavailable':
      return `Application error. Please contact ${supportContact}.`;
    default:
      return doubleCheck;
  }
}

/** Whether Reload can help: only when the server failed or did not answer; a refused or unknown code stays so. */
export function canRetryInvoice(error: unknown): boolean {
  if (error === MISSING_PARCEL_CODE) return false;
  const code = errorCodeOf(error);
  return code === 'internal' || code === 'unavailable';
}

/** Whether the reason ends with "Please contact …": then the support links belong beside it. */
export function needsSupport(error: unknown): boolean {
  const code = errorCodeOf(error);
  return (
    code === 'unauthenticated' || code === 'sso-link-required' || code === 'session-expired' || canRetryInvoice(error)
  );
}

/** A 401: the signed-in account is not admitted (or its session ended), whatever the parcel code. */
export const isAccountRefused = (error: unknown): boolean =>
  errorCodeOf(error) === 'unauthenticated' || errorCodeOf(error) === 'sso-link-required';
