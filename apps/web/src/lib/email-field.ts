import { emailSchema, MAX_EMAIL_LENGTH } from '@portal/contract';
import { z } from 'zod';

/**
 * The e-mail field of the add-user and forgot-password forms with the spec's three messages. It ends in
 * the contract's schema, so the value comes out trimmed and lower-cased exactly as the API stores it.
 * Imports zod: use it only from lazily loaded code.
 */
export const emailFieldSchema = z
  .string({ error: 'Please enter a string' })
  .trim()
  .min(1, 'Required')
  // Checked here so an oversized paste gets the spec's message rather than the contract's own.
  .max(MAX_EMAIL_LENGTH, 'Invalid email address')
  .pipe(emailSchema);

export const emailFormSchema = z.object({ email: emailFieldSchema });
export type EmailFormInput = z.input<typeof emailFormSchema>;
export type EmailFormValues = z.output<typeof emailFormSchema>;
