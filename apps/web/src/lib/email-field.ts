import { emailSchema } from '@portal/contract';
import { z } from 'zod';

/**
 * The e-mail field of the add-user and forgot-password forms with the spec's three messages. It ends in
 * the contract's schema, so the value comes out trimmed and lower-cased exactly as the API stores it.
 * Imports zod: use it only from lazily loaded code.
 */
export const emailFieldSchema = z.string({ error: 'Please enter a string' }).trim().min(1, 'Required').pipe(emailSchema);

export const emailFormSchema = z.object({ email: emailFieldSchema });
export type EmailForm = z.input<typeof emailFormSchema>;
