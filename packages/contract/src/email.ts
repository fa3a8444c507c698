import { z } from 'zod';

/** Longest address RFC 5321 allows in a path; anything longer is refused before it reaches a query. */
export const MAX_EMAIL_LENGTH = 254;

/** Canonical form used everywhere: trimmed and lower-cased, so one person is one row. */
export const normalizeEmail = (value: string): string => value.trim().toLowerCase();

export const emailSchema = z
  .string()
  .max(MAX_EMAIL_LENGTH, 'E-mail address is too long')
  .transform(normalizeEmail)
  .pipe(z.email('Invalid email address'));
