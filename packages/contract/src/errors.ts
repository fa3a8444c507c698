import { z } from 'zod';

/**
 * Every 4xx/5xx body has this shape: `message` for people, `code` for programs (stable, one per kind of
 * refusal), and on a 5xx the `requestId` a person quotes to support (also in the X-Request-Id header).
 */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string().describe('Stable machine-readable kind: invalid, unauthenticated, forbidden, not-found, …'),
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
