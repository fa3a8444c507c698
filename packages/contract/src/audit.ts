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

export const auditQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(50),
    offset: z.coerce.number().int().min(0).default(0),
    parcelCode: parcelCodeSchema.optional(),
    user: emailSchema.optional(),
  })
  .strict();
