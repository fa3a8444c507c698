import { z } from 'zod';
import { emailSchema } from './email.ts';
import { parcelCodeSchema } from './invoices.ts';

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: z.enum(['ok', 'refused', 'failed']),
  detail: z.string().nullable(),
  /** The client a refusal came from (IPv6 by /64); null for other entries. */
  client: z.string().nullable(),
  /** How many identical refusals (same client, reason and minute) this entry stands for. */
  count: z.number().int(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditEntryListSchema = z.array(auditEntrySchema);

/**
 * Which entries the audit log lists (`events`):
 * - `all`: every entry (the default);
 * - `no-confirmations`: all but the administrators' daily passkey confirmations (`passkeys.step-up`), which
 *   otherwise make up most of a quiet day's log;
 * - `users`: user list and role changes, sign-in accounts and ended sessions (`users.*`, `sessions.*`);
 * - `invoices`: invoices stored, opened, warned about and acknowledged (`invoice.*`);
 * - `passkeys`: passkeys set up, confirmed with, reset, and their enrollment codes (`passkeys.*`);
 * - `refused`: every refused call, whatever it asked for.
 */
export const AUDIT_EVENT_GROUPS = ['all', 'no-confirmations', 'users', 'invoices', 'passkeys', 'refused'] as const;
export type AuditEventGroup = (typeof AUDIT_EVENT_GROUPS)[number];

export const auditQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(50),
    offset: z.coerce.number().int().min(0).default(0),
    parcelCode: parcelCodeSchema.optional(),
    user: emailSchema.optional(),
    events: z.enum(AUDIT_EVENT_GROUPS).default('all'),
  })
  .strict();
