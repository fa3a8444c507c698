import { z } from 'zod';

/** DELETE /me/sessions and DELETE /users/:email/sessions: every session of that person has ended. */
export const sessionsEndedSchema = z.object({ email: z.string(), ended: z.literal(true) });
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;
