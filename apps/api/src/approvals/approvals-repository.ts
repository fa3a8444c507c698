import type { Approval, ApprovalKind } from '@portal/contract';
import { and, asc, countDistinct, eq, gt, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { adminApprovals, adminPasskeys, users } from '../db/schema.ts';

export type ApprovalRow = typeof adminApprovals.$inferSelect;

/** How long a request waits for a second administrator: a working day and a night, like an enrollment code. */
export const APPROVAL_TTL_MS = 24 * 60 * 60_000;
/** Decided or run-out requests stay this long (the list's sweep), then only the audit log remembers them. */
const KEPT_AFTER_EXPIRY = '7 days';

export const approvalOf = (row: ApprovalRow): Approval => ({
  id: row.id,
  kind: row.kind,
  email: row.email,
  requestedBy: row.requestedBy,
  requestedAt: row.requestedAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  decision: row.decision,
  decidedBy: row.decidedBy,
  decidedAt: row.decidedAt?.toISOString() ?? null,
});

const pending = and(isNull(adminApprovals.decidedAt), gt(adminApprovals.expiresAt, sql`now()`));

/** Requests that wait for a second administrator, and the count that decides whether one is needed. */
export function createApprovalsRepository(db: Database) {
  return {
    /**
     * Administrators (active, not deactivated by the directory) with at least one passkey, leaving out the
     * given addresses: whoever asks and whom it is about. Each of the others could be the second person.
     */
    async countSecondPersons(excluded: string[]): Promise<number> {
      const [row] = await db
        .select({ total: countDistinct(users.email) })
        .from(users)
        .innerJoin(adminPasskeys, eq(adminPasskeys.email, users.email))
        .where(and(eq(users.admin, true), eq(users.suspended, false), notInArray(users.email, excluded)));
      return row?.total ?? 0;
    },

    /**
     * Records a request; undefined when the same change for the same address already waits. One that ran out
     * unanswered makes way for a new one.
     */
    async request(input: { kind: ApprovalKind; email: string; requestedBy: string }): Promise<ApprovalRow | undefined> {
      return db.transaction(async (tx) => {
        await tx
          .delete(adminApprovals)
          .where(
            and(
              eq(adminApprovals.kind, input.kind),
              eq(adminApprovals.email, input.email),
              isNull(adminApprovals.decidedAt),
              lt(adminApprovals.expiresAt, sql`now()`),
            ),
          );
        const [row] = await tx
          .insert(adminApprovals)
          .values({ ...input, expiresAt: sql`now() + make_interval(secs => ${APPROVAL_TTL_MS / 1000})` })
          .onConflictDoNothing()
          .returning();
        return row;
      });
    },

    /** What still waits, oldest first; sweeps what was decided or ran out a week ago. */
    async listPending(): Promise<ApprovalRow[]> {
      await db.delete(adminApprovals).where(lt(adminApprovals.expiresAt, sql`now() - ${KEPT_AFTER_EXPIRY}::interval`));
      return db.select().from(adminApprovals).where(pending).orderBy(asc(adminApprovals.id));
    },

    async find(id: number): Promise<ApprovalRow | undefined> {
      const [row] = await db.select().from(adminApprovals).where(eq(adminApprovals.id, id));
      return row;
    },

    /**
     * Decides a request that still waits and has not run out: one of two racing decisions gets the row, the
     * other undefined.
     */
    async decide(id: number, by: string, decision: 'approved' | 'rejected'): Promise<ApprovalRow | undefined> {
      const [row] = await db
        .update(adminApprovals)
        .set({ decidedBy: by, decidedAt: sql`now()`, decision })
        .where(and(eq(adminApprovals.id, id), pending))
        .returning();
      return row;
    },

    /** Puts an approved request back to waiting: the change it approved could not be made. */
    async undecide(id: number): Promise<void> {
      await db
        .update(adminApprovals)
        .set({ decidedBy: null, decidedAt: null, decision: null })
        .where(eq(adminApprovals.id, id));
    },
  };
}

export type ApprovalsRepository = ReturnType<typeof createApprovalsRepository>;
