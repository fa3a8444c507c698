import { z } from 'zod';
import { emailSchema } from './email.ts';
import { parcelCodeSchema } from './invoices.ts';

/**
 * Every action the portal writes to its audit log (refused calls are written under their route instead,
 * `DELETE /api/users/:email`). The admin screen names each in words; a new one must be named there too.
 */
export const AUDIT_ACTIONS = [
  'users.add',
  'users.remove',
  'users.account-cleanup',
  'users.take-over-account',
  'users.unbind-shared-account',
  'users.directory-update',
  'users.make-admin',
  'users.remove-admin',
  'users.grant-finance',
  'users.remove-finance',
  'users.approval-requested',
  'users.approval-approved',
  'users.approval-rejected',
  'sessions.end',
  'sso.link',
  'sso.link-refused',
  'invoice.download',
  'invoice.download-xml',
  'invoice.download-zip',
  'invoice.search',
  'invoice.facts',
  'invoice.history',
  'invoice.ingest',
  'invoice.revalidate',
  'invoice.bank-details-changed',
  'invoice.amount-changed',
  'invoice.e-invoice-removed',
  'invoice.visible-account-mismatch',
  'invoice.visible-text-unread',
  'invoice.warning-acknowledged',
  'invoice.arrival-notice-request',
  'invoice.arrival-notice-cancel',
  'invoice.arrival-notice',
  'passkeys.enroll',
  'passkeys.step-up',
  'passkeys.reset',
  'passkeys.enrollment-code',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
/** A refused call's entry: its method and route pattern. */
export type RefusedRoute = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

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
