/**
 * The stable, machine-readable kinds of failure and the one HTTP status of each. The server maps its
 * refusals through this table; the web app chooses its message by the code, and derives a code from the
 * status only for answers that carry none (a proxy's 502 page, no answer at all). Free of zod, so the first
 * page load can import it.
 */
export const STATUS_OF_CODE = {
  invalid: 400,
  unauthenticated: 401,
  /** The sign-in reached its maximum length, or its sessions were ended: sign in again. */
  'session-expired': 401,
  /**
   * A company sign-in of an account that has a password, not linked yet: sign in with the password once
   * and link the company account (POST /api/sso/link), so it never replaces the password.
   */
  'sso-link-required': 401,
  forbidden: 403,
  /** An administrator's call needs a recent passkey confirmation of this sign-in: confirm, then call again. */
  'step-up-required': 403,
  'not-found': 404,
  conflict: 409,
  /** A sign-in account the portal did not make holds the address: an add can offer to take it over. */
  'foreign-account': 409,
  /** The company directory keeps this user (SCIM): change or remove them there, not on the admin screen. */
  'managed-by-directory': 409,
  'too-large': 413,
  'unsupported-media-type': 415,
  'rate-limited': 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_OF_CODE;

export const ERROR_CODES = Object.keys(STATUS_OF_CODE) as [ErrorCode, ...ErrorCode[]];

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(STATUS_OF_CODE, value);

/**
 * The code of an answer that carries none, from its status; 0 (no answer at all) is 'unavailable'. The first
 * code with that status wins, so a bare 401 or 403 reads as `unauthenticated` or `forbidden`.
 */
export function codeForStatus(status: number): ErrorCode {
  if (status === 0) return 'unavailable';
  const code = ERROR_CODES.find((key) => STATUS_OF_CODE[key] === status);
  if (code) return code;
  return status >= 500 ? 'internal' : 'invalid';
}
