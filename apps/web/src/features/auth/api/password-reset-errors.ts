import { ApiError } from '@/lib/api-client';
import { reportError } from '@/lib/error-reporting';

export const CHECK_EMAIL_MESSAGE = 'Please check the email address you have provided.';
const WAIT_MESSAGE = 'Too many requests. Please wait a minute and try again.';
const API_UNREACHABLE_MESSAGE = 'The portal could not be reached. Please check your connection and try again.';
const PROVIDER_UNREACHABLE_MESSAGE =
  'The password reset service could not be reached, so no email was sent. Please check your connection and try again.';
const PROVIDER_BUSY_MESSAGE = 'Too many password reset requests. Please wait a few minutes and try again.';
const MAIL_FAILED_MESSAGE = 'The password reset email could not be sent. Please try again later.';

/**
 * The lookup refused (any status): the spec's "check the address" message. A 429 instead passes on the
 * server's message (it says how long to wait), and no response at all is not the address's fault.
 */
export function lookupFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) {
    reportError(error);
    return MAIL_FAILED_MESSAGE;
  }
  if (error.status === 429) return error.serverMessage ?? WAIT_MESSAGE;
  if (error.status === 0) return API_UNREACHABLE_MESSAGE;
  return CHECK_EMAIL_MESSAGE;
}

/** The identity provider failed to send the mail; its own codes are not meant for people. */
export function mailFailureMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'auth/network-request-failed') return PROVIDER_UNREACHABLE_MESSAGE;
  if (code === 'auth/too-many-requests' || code === 'auth/quota-exceeded') return PROVIDER_BUSY_MESSAGE;
  reportError(error);
  return MAIL_FAILED_MESSAGE;
}
