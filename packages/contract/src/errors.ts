import { z } from 'zod';

/** Every 4xx/5xx body has this shape. */
export const errorBodySchema = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
