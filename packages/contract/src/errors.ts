import { z } from 'zod';

/**
 * The stable, machine-readable kinds of failure, one per way a request can go wrong. The server maps each
 * to one HTTP status; the web app chooses its message by the code, never by the status alone.
 */
export const ERROR_CODES = [
  'invalid',
  'unauthenticated',
  'forbidden',
  'not-found',
  'conflict',
  'too-large',
  'unsupported-media-type',
  'rate-limited',
  'unavailable',
  'internal',
] as const;

export const errorCodeSchema = z
  .enum(ERROR_CODES)
  .describe(
    'Stable machine-readable kind: invalid (400), unauthenticated (401), forbidden (403), not-found (404), ' +
      'conflict (409), too-large (413), unsupported-media-type (415), rate-limited (429), unavailable (503), ' +
      'internal (500).',
  );
export type ErrorCode = z.infer<typeof errorCodeSchema>;

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
