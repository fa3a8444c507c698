import { z } from 'zod';
import { allowedUserSchema } from './users.ts';
import { enrollmentCodeIssuedSchema } from './passkeys.ts';

/**
 * What waits for a second administrator: making someone an administrator, resetting an administrator's
 * passkeys (recovery), or a fresh enrollment code for an administrator who has not set up a passkey yet. Each
 * hands out an enrollment code, so none is one person's alone once there are two administrators with passkeys.
 */
export const APPROVAL_KINDS = ['make-admin', 'reset-passkeys', 'enrollment-code'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/** A request waiting for (or decided by) a second administrator. */
export const approvalSchema = z.object({
  id: z.number().int(),
  kind: z.enum(APPROVAL_KINDS),
  /** The address it is about: who is to be made an administrator, or whose passkeys are to be reset. */
  email: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  /** After this, it can no longer be approved: ask again. */
  expiresAt: z.string(),
  decision: z.enum(['approved', 'rejected']).nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type Approval = z.infer<typeof approvalSchema>;

/** GET /approvals: the requests still waiting and not run out, oldest first. */
export const approvalListSchema = z.array(approvalSchema);
export type ApprovalList = z.infer<typeof approvalListSchema>;

export const approvalParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/**
 * PATCH /users/:email { admin: true }, DELETE /users/:email/passkeys and POST /users/:email/enrollment-code answer 202 with this when a second
 * administrator must approve: nothing has changed yet, and no enrollment code is issued to whoever asked.
 * The PATCH's answer carries the row as it is now too (a finance change in the same call is made at once).
 */
export const approvalRequestedSchema = allowedUserSchema.partial().extend({
  email: z.string(),
  approval: approvalSchema,
});
export type ApprovalRequested = z.infer<typeof approvalRequestedSchema>;

/**
 * POST /approvals/:id/approve: the change is made, by the approver; `enrollment` is the one-time code the
 * person sets up their first passkey with, shown to the approver only (absent when a promoted person still
 * has a passkey from before).
 */
export const approvalDoneSchema = z.object({
  approval: approvalSchema,
  enrollment: enrollmentCodeIssuedSchema.optional(),
});
export type ApprovalDone = z.infer<typeof approvalDoneSchema>;
