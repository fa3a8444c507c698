import { z } from 'zod';
import { emailSchema } from './email.ts';
import { enrollmentCodeIssuedSchema, passkeySummarySchema } from './passkeys.ts';

/**
 * The roles an allowlisted person may hold beside being a user, named once: the admin screen, the CLI, the
 * authorization of routes and any directory mapping (groups to roles) read this list.
 * - admin: keeps the allowlist (behind a passkey);
 * - finance: finds invoices without a mail's link, and downloads many at once (the Invoices page).
 */
export const USER_ROLES = ['admin', 'finance'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const userLookupSchema = z.object({
  email: z.string(),
  activated: z.boolean(),
  /** Present only when the caller is that user or an admin. */
  admin: z.boolean().optional(),
  /** Present only when the caller is that user or an admin. */
  finance: z.boolean().optional(),
});
export type UserLookup = z.infer<typeof userLookupSchema>;

export const allowedUserSchema = z.object({
  email: z.string(),
  admin: z.boolean(),
  finance: z.boolean(),
  activated: z.boolean(),
  registered: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  /**
   * 'directory' when the company directory provisions this user (SCIM): the admin screen marks the row and
   * refuses local changes (code managed-by-directory). Null for users the portal's administrators added.
   */
  managedBy: z.enum(['directory']).nullable().optional(),
  /** The directory deactivated this user (SCIM active=false): the row stays, the person is refused. */
  suspended: z.boolean().optional(),
  /** An administrator's or finance user's passkeys, oldest first (the admin list only; absent for everyone else). */
  passkeys: z.array(passkeySummarySchema).optional(),
});
export type AllowedUser = z.infer<typeof allowedUserSchema>;

export const allowedUserListSchema = z.array(allowedUserSchema);

export const USER_SORTS = ['email', '-email', 'added', '-added'] as const;
export type UserSort = (typeof USER_SORTS)[number];
/** Admins; people who set a password (activated); people who have not yet (invited). */
export const USER_STATUSES = ['admin', 'activated', 'invited'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Optional search and paging for GET /users; without them the whole list comes back, as the spec's screen expects. */
export const userListQuerySchema = z
  .object({
    search: z.string().trim().max(254).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
    /** E-mail A–Z (the default), Z–A, or by date added, oldest or newest first. */
    sort: z.enum(USER_SORTS).optional(),
    status: z.enum(USER_STATUSES).optional(),
  })
  .strict();
export type UserListQuery = z.infer<typeof userListQuerySchema>;
export const TOTAL_COUNT_HEADER = 'x-total-count';

/** What the unauthenticated calls answer: enough for the screen, nothing about the role. */
export const registeredUserSchema = z.object({ email: z.string(), registered: z.literal(true) });
export type RegisteredUser = z.infer<typeof registeredUserSchema>;
export const activatedUserSchema = z.object({ email: z.string(), activated: z.boolean() });
export type ActivatedUser = z.infer<typeof activatedUserSchema>;
/**
 * `accountCleanup`: 'done' when the sign-in account is signed out and deleted too; 'pending' when the identity
 * provider did not answer: the removal holds all the same (the person is refused at once), and the account
 * is deleted by a retry, listed meanwhile in GET /account-cleanups.
 */
export const removedUserSchema = z.object({ email: z.string(), accountCleanup: z.enum(['done', 'pending']) });
export type RemovedUser = z.infer<typeof removedUserSchema>;

/**
 * POST /users/:email?takeOver=true: only after a `foreign-account` refusal, once the admin confirmed that
 * the sign-in account someone else made for the address may be deleted. Without it, the spec's call as is.
 */
export const addUserQuerySchema = z
  .object({ takeOver: z.enum(['true', 'false']).transform((value) => value === 'true') })
  .partial()
  .strict();

/** A removed user's sign-in account the identity provider has not yet confirmed deleted; retried until done. */
export const accountCleanupSchema = z.object({
  email: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  attempts: z.number().int(),
  nextAttemptAt: z.string(),
  lastError: z.string().nullable(),
});
export type AccountCleanupItem = z.infer<typeof accountCleanupSchema>;
export const accountCleanupListSchema = z.object({ total: z.number().int(), items: z.array(accountCleanupSchema) });
export type AccountCleanupList = z.infer<typeof accountCleanupListSchema>;

export const registerUserBodySchema = z.object({ userId: emailSchema }).strict();
export const activateUserBodySchema = z.object({ activated: z.literal(true) }).strict();
export const emailParamsSchema = z.object({ email: emailSchema });

/**
 * PATCH /users/:email: give or take a role (one of USER_ROLES): make someone an administrator or stop them
 * being one, and the same for finance. At least one; both in one call are changed one after the other.
 */
export const changeUserBodySchema = z
  .object({ admin: z.boolean().optional(), finance: z.boolean().optional() } satisfies Record<UserRole, unknown>)
  .strict()
  .refine((body) => USER_ROLES.some((role) => body[role] !== undefined), {
    message: `Send at least one of ${USER_ROLES.join(', ')}`,
  });
export type ChangeUserBody = z.infer<typeof changeUserBodySchema>;
/**
 * PATCH /users/:email: the row as it is now; `enrollment` when it made an administrator who has no passkey
 * yet: the one-time code they set up their first passkey with, shown once to the admin who did it.
 */
export const changedUserSchema = allowedUserSchema.extend({ enrollment: enrollmentCodeIssuedSchema.optional() });
export type ChangedUser = z.infer<typeof changedUserSchema>;

/** The most addresses one bulk call takes, and one bulk add or delete on the screen. */
export const MAX_BULK_ADDRESSES = 1000;

/**
 * POST /users/bulk-add and /users/bulk-delete: the addresses as typed (each checked on its own, so one
 * that is not an address is a result, not a refusal of the whole call).
 */
export const bulkUsersBodySchema = z
  .object({
    emails: z
      .array(z.string().max(320, 'An entry is too long to be an address'))
      .min(1, 'Send at least one address')
      .max(MAX_BULK_ADDRESSES, `Send at most ${MAX_BULK_ADDRESSES} addresses at a time`),
  })
  .strict();
export type BulkUsersBody = z.infer<typeof bulkUsersBodySchema>;
/** POST /users/bulk-add: the same, and `finance: true` gives every address it adds the finance role too. */
export const bulkAddBodySchema = bulkUsersBodySchema.extend({ finance: z.boolean().optional() }).strict();
export type BulkAddBody = z.infer<typeof bulkAddBodySchema>;

/** What became of one address of a bulk add: the single add's outcomes, in the order they were sent. */
export const BULK_ADD_OUTCOMES = ['added', 'exists', 'invalid', 'failed'] as const;
export type BulkAddOutcome = (typeof BULK_ADD_OUTCOMES)[number];
/** … of a bulk delete. `refused`: the server would not (the caller's own account, the last administrator). */
export const BULK_DELETE_OUTCOMES = ['deleted', 'not-found', 'refused', 'invalid', 'failed'] as const;
export type BulkDeleteOutcome = (typeof BULK_DELETE_OUTCOMES)[number];

const bulkResultSchema = <T extends readonly [string, ...string[]]>(outcomes: T) =>
  z.object({
    /** The entry as it was sent. */
    input: z.string(),
    outcome: z.enum(outcomes),
    /** Why it is invalid, refused or failed, or what is left to do after a deletion, in words for the admin. */
    message: z.string().optional(),
  });
export const bulkAddResponseSchema = z.object({ results: z.array(bulkResultSchema(BULK_ADD_OUTCOMES)) });
export type BulkAddResponse = z.infer<typeof bulkAddResponseSchema>;
export type BulkAddResult = BulkAddResponse['results'][number];
export const bulkDeleteResponseSchema = z.object({ results: z.array(bulkResultSchema(BULK_DELETE_OUTCOMES)) });
export type BulkDeleteResponse = z.infer<typeof bulkDeleteResponseSchema>;
export type BulkDeleteResult = BulkDeleteResponse['results'][number];
