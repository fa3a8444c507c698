import type { AuditTrail } from '../audit/audit-trail.ts';
import { createJobWorker, type JobDone, type JobWorkerDeps } from '../background/job-worker.ts';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import type { AccountCleanup, AccountCleanupsRepository } from './account-cleanups.ts';
import type { UsersRepository } from './repository.ts';

/** The queue's name in the metrics and the background registry. */
export const ACCOUNT_CLEANUPS_QUEUE = 'account-cleanups';
/** How often the queue is looked at for clean-ups whose back-off has passed. */
export const CLEANUP_POLL_MS = 5_000;

export interface AccountCleanerDeps {
  cleanups: AccountCleanupsRepository;
  users: Pick<UsersRepository, 'findByFirebaseUid'>;
  identity: Pick<IdentityProvider, 'revokeSessions' | 'deleteUser'>;
  audit: Pick<AuditTrail, 'bestEffort'>;
  /** Makes this process forget the account's cached tokens. */
  forgetSessions?: (uid: string) => void;
  log: JobWorkerDeps['log'];
  onFailure?: JobWorkerDeps['onFailure'];
}

export const UNBOUND_ROW_DETAIL =
  "the row was bound to no sign-in account, so none was deleted; an account holding the address (if any) is not provably the row's and was left alone";

const ACTION = 'users.account-cleanup' as const;
const tries = (job: AccountCleanup) => (job.attempts > 1 ? ` (attempt ${job.attempts})` : '');

/**
 * Finishes removals at the identity provider: ends the sessions of a removed user's sign-in account and
 * deletes it, from the durable queue, until it is done. A removal never waits on this to hold: the row is
 * gone and the row alone decides access. Each job is tried at once by the request that removed the row,
 * then by any instance's worker every few seconds with a growing back-off (5 s doubling to five minutes),
 * and the outcome is audited.
 */
export function createAccountCleaner(deps: AccountCleanerDeps) {
  const { cleanups, identity } = deps;

  async function perform(job: AccountCleanup): Promise<JobDone<'done'>> {
    const event = { actor: job.requestedBy, action: ACTION, target: job.email, outcome: 'ok' as const };
    // Only the account the row was bound to is the row's. A row without one (from before rows were bound, or
    // unbound because it shared its account with another) admitted nobody, and whatever account holds its
    // address now may be someone else's (an address changed at the provider): that one is left alone.
    const uid = job.firebaseUid ?? undefined;
    if (!uid) return { outcome: 'done', audit: { ...event, detail: UNBOUND_ROW_DETAIL } };
    if (await deps.users.findByFirebaseUid(uid)) {
      // Listed again with this very account meanwhile: it is someone's sign-in again, not a leftover.
      return { outcome: 'done', audit: { ...event, detail: `kept the sign-in account (uid ${uid}): listed again` } };
    }
    // Sessions first: should the deletion then fail, the account is at least signed out everywhere.
    await identity.revokeSessions(uid);
    await identity.deleteUser(uid);
    deps.forgetSessions?.(uid);
    return {
      outcome: 'done',
      audit: { ...event, detail: `sessions ended and sign-in account deleted (uid ${uid})${tries(job)}` },
    };
  }

  const worker = createJobWorker(
    {
      name: ACCOUNT_CLEANUPS_QUEUE,
      queue: cleanups,
      outcomes: ['done'],
      perform,
      failureAudit: (job, { message, delayMs }) => ({
        actor: job.requestedBy,
        action: ACTION,
        target: job.email,
        outcome: 'failed',
        detail: `the sign-in account is not deleted yet${tries(job)}: ${message}; retried in ${Math.round(delayMs / 1000)} s and until done`,
      }),
      backoff: { firstMs: 5_000, longestMs: 5 * 60_000 },
      pollMs: CLEANUP_POLL_MS,
      batch: 20,
    },
    { audit: deps.audit, log: deps.log, onFailure: deps.onFailure },
  );

  return {
    ...worker,
    /** One try of one job the caller holds; 'done' when nothing is left of it. */
    attempt: worker.attempt as (job: AccountCleanup) => Promise<'done' | 'pending'>,
    /** Every pending job nobody is at, back-off or not (an operator's "now"). */
    runAll: () => worker.work(() => cleanups.takeAny(1)),
    /**
     * The jobs of one address, before it is added again: its old account must be gone first, or the add
     * would adopt it. Answers how many are still pending afterwards.
     */
    /** Which of these addresses have a clean-up pending (a bulk add finishes those one by one). */
    pendingAmong: (emails: readonly string[]) => cleanups.pendingAmong(emails),
    async finishFor(email: string): Promise<number> {
      await worker.work(() => cleanups.takeFor(email, 1));
      return cleanups.pendingFor(email);
    },
  };
}

export type AccountCleaner = ReturnType<typeof createAccountCleaner>;
