import { z } from 'zod';

/** DELETE /me/sessions and DELETE /users/:email/sessions: every session of that person has ended. */
export const sessionsEndedSchema = z.object({ email: z.string(), ended: z.literal(true) });
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;

/**
 * POST /sso/link, called with the bearer token of a password sign-in made moments ago: the company sign-in of
 * the same account (its ID token) is linked to the person's row, and the password stays.
 */
export const ssoLinkRequestSchema = z.object({
  companyIdToken: z.string().min(1).max(8192).describe('The ID token of the company sign-in of the same account'),
});
export type SsoLinkRequest = z.infer<typeof ssoLinkRequestSchema>;
export const ssoLinkedSchema = z.object({ email: z.string(), linked: z.literal(true) });
export type SsoLinked = z.infer<typeof ssoLinkedSchema>;
