import { z } from 'zod';
import { ERROR_CODES } from './error-codes.ts';

export { codeForStatus, ERROR_CODES, isErrorCode, STATUS_OF_CODE, type ErrorCode } from './error-codes.ts';

export const errorCodeSchema = z
  .enum(ERROR_CODES)
  .describe(
    'Stable machine-readable kind: invalid (400), unauthenticated (401), forbidden (403), not-found (404), ' +
      'conflict (409), too-large (413), unsupported-media-type (415), rate-limited (429), unavailable (503), ' +
      'internal (500).',
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
