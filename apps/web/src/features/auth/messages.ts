import { ApiError } from '@/lib/api-client';
import { CompanySignInRefused } from '@/lib/auth';
import { reportError } from '@/lib/error-reporting';

/** Every sentence the login screen and the password reset show a person, kept together; the spec's are word for word. */

export const MISSING_CREDENTIALS_MESSAGE = 'Please enter both email and password';
export const RESET_SENT_MESSAGE =
  'A password reset email has been sent to your email address, please follow the link mentioned in it.';
export const UNEXPECTED_FAILURE_MESSAGE = 'Something went wrong. Please try again later.';

const CREDENTIAL_ERRORS = new Set([
  'auth/invalid-credential',
  'auth/invalid-login-credentials',
  'auth/wrong-password',
  'auth/user-not-found',
  'auth/invalid-email',
]);

/**
 * The spec: a failed sign-in shows the provider's error text (or "Login failed"), and for wrong
 * credentials "Either email or password is incorrect", which a person can act on.
 */
export function signInErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CREDENTIAL_ERRORS.has(code)) return 'Either email or password is incorrect';
  if (code === 'auth/too-many-requests')
    return 'Too many failed attempts. Please wait a few minutes or reset your password.';
  if (code === 'auth/network-request-failed')
    return 'The sign-in service could not be reached. Please check your connection.';
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message ? message : 'Login failed';
}

/** The button of single sign-on, with the company's name from the runtime configuration. */
export const ssoButtonLabel = (company: string) => `Sign in with ${company}`;

/** Leaves the password sign-in as the spec's, without linking the company account it was asked for. */
export const ssoLinkCancelLabel = (company: string) => `Sign in without linking my ${company} account`;

/**
 * A failed single sign-on. Closing the pop-up is the person's own choice and says nothing (null). The
 * portal's own refusal (another domain, an unverified address, another identity than the linked one, not on
 * the list) is shown in the portal's sentence, which says what to do.
 */
export function ssoSignInErrorMessage(error: unknown, company: string): string | null {
  if (error instanceof CompanySignInRefused) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'auth/popup-closed-by-user' || code === 'auth/cancelled-popup-request' || code === 'auth/user-cancelled')
    return null;
  if (code === 'auth/popup-blocked')
    return `Your browser blocked the ${company} sign-in window. Please allow pop-ups for this site and try again.`;
  if (code === 'auth/account-exists-with-different-credential')
    return `Your ${company} account could not be matched to your portal account. Please contact the website administrator.`;
  if (code === 'auth/network-request-failed')
    return 'The sign-in service could not be reached. Please check your connection.';
  if (code === 'auth/user-disabled') return 'Your account is disabled. Please contact the website administrator.';
  reportError(error);
  return `Signing in with ${company} did not work. Please try again, or sign in with your email and password.`;
}

export const CHECK_EMAIL_MESSAGE = 'Please check the email address you have provided.';
const WAIT_MESSAGE = 'Too many requests. Please wait a minute and try again.';
const API_UNREACHABLE_MESSAGE = 'The portal could not be reached. Please check your connection and try again.';
const PROVIDER_UNREACHABLE_MESSAGE =
  'The password reset service could not be reached, so no email was sent. Please check your connection and try again.';
const PROVIDER_BUSY_MESSAGE = 'Too many password reset requests. Please wait a few minutes and try again.';
const MAIL_FAILED_MESSAGE = 'The password reset email could not be sent. Please try again later.';

/**
 * The lookup refused (any status): the spec's "check the address" message. A 429 instead passes on the
 * server's message (it says how long to wait), as does a 503 (a dependency is down); and no response at
 * all is not the address's fault either.
 */
export function lookupFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) {
    reportError(error);
    return MAIL_FAILED_MESSAGE;
  }
  if (error.status === 429) return error.serverMessage ?? WAIT_MESSAGE;
  if (error.status === 0) return API_UNREACHABLE_MESSAGE;
  // The portal's database or sign-in service is down: the address is fine, and the server says so.
  if (error.status === 503) return error.serverMessage ?? API_UNREACHABLE_MESSAGE;
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

export const SIGN_OUT_EVERYWHERE_TITLE = 'Sign out everywhere?';
export const SIGN_OUT_EVERYWHERE_EXPLAINED =
  'This signs you out of the portal on every device and browser, this one included. Anyone using your account elsewhere has to sign in again with your password.';
export const SIGN_OUT_EVERYWHERE_FAILED =
  'Your other sessions could not be ended. You are still signed in; please try again in a minute.';
