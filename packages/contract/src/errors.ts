import { z } from 'zod';
import { ERROR_CODES } from './error-codes.ts';

export { codeForStatus, ERROR_CODES, isErrorCode, STATUS_OF_CODE, type ErrorCode } from './error-codes.ts';

export const errorCodeSchema = z
  .enum(ERROR_CODES)
  .describe(
    'Stable machine-readable kind: invalid (400), unauthenticated (401), session-expired (401: the sign-in ' +
      'reached its maximum length, sign in again), sso-link-required (401: a first company sign-in of an ' +
      'account with a password; sign in with the password and link it), forbidden (403), step-up-required (403: an administrator ' +
      'must confirm with their passkey, then repeat the call), not-found (404), conflict (409), ' +
      'foreign-account (409: a sign-in account the portal did not make holds the address; adding it again ' +
      'with takeOver=true deletes that account), too-large (413), unsupported-media-type (415), ' +
      'rate-limited (429), unavailable (503), internal (500).',
  );

/**
 * Every 4xx/5xx body has this shape: `message` for people, `code` for programs, and on a 5xx the
 * `requestId` a person quotes to support (also in the X-Request-Id header).
 */
export const errorBodySchema = z.object({
  message: z.string(),
  code: errorCodeSchema,
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
