import type { AuditTrail } from '../audit/audit-trail.ts';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import type { AccountCleanup, AccountCleanupsRepository } from './account-cleanups.ts';
import type { UsersRepository } from './repository.ts';

/** How often the queue is looked at for clean-ups whose back-off has passed. */
export const CLEANUP_POLL_MS = 5_000;
const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 5 * 60_000;
/** Tried per round at most; a round stops at the first failure, since the identity provider is then likely down. */
const BATCH = 20;

export interface AccountCleanerDeps {
  cleanups: AccountCleanupsRepository;
  users: Pick<UsersRepository, 'findByFirebaseUid'>;
  identity: Pick<IdentityProvider, 'revokeSessions' | 'deleteUser'>;
  audit: Pick<AuditTrail, 'bestEffort'>;
  /** Makes this process forget the account's cached tokens. */
  forgetSessions?: (uid: string) => void;
  log: { warn(details: object, message: string): void };
}

export const UNBOUND_ROW_DETAIL =
  "the row was bound to no sign-in account, so none was deleted; an account holding the address (if any) is not provably the row's and was left alone";

/** 5 s after the first failure, doubling, at most five minutes apart. */
export const retryDelayMs = (attempts: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);

/** The first failure is audited, then the 2nd, 4th, 8th…: an outage of hours adds a dozen entries, not thousands. */
const auditsFailure = (attempts: number) => (attempts & (attempts - 1)) === 0;

/**
 * Finishes removals at the identity provider: ends the sessions of a removed user's sign-in account and
 * deletes it, from the durable queue, until it is done. A removal never waits on this to hold: the row is
 * gone and the row alone decides access. Each job is tried at once by the request that removed the row,
 * then by any instance every few seconds with a growing back-off, and the outcome is audited.
 */
export function createAccountCleaner(deps: AccountCleanerDeps) {
  const { cleanups, identity } = deps;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> = Promise.resolve();
  let running = false;

  /** One try of one job the caller has leased; 'done' when nothing is left of it. */
  async function attempt(job: AccountCleanup): Promise<'done' | 'pending'> {
    const event = { actor: job.requestedBy, action: 'users.account-cleanup' as const, target: job.email };
    const tries = job.attempts > 1 ? ` (attempt ${job.attempts})` : '';
    // Only the account the row was bound to is the row's. A row without one (from before rows were bound, or
    // unbound because it shared its account with another) admitted nobody, and whatever account holds its
    // address now may be someone else's (an address changed at the provider): that one is left alone.
    const uid = job.firebaseUid ?? undefined;
    if (!uid) {
      await cleanups.complete(job.id);
      await deps.audit.bestEffort({ ...event, outcome: 'ok', detail: UNBOUND_ROW_DETAIL });
      return 'done';
    }
    try {
      if (await deps.users.findByFirebaseUid(uid)) {
        // Listed again with this very account meanwhile: it is someone's sign-in again, not a leftover.
        await cleanups.complete(job.id);
        await deps.audit.bestEffort({
          ...event,
          outcome: 'ok',
          detail: `kept the sign-in account (uid ${uid}): listed again`,
        });
        return 'done';
      }
      // Sessions first: should the deletion then fail, the account is at least signed out everywhere.
      await identity.revokeSessions(uid);
      await identity.deleteUser(uid);
      deps.forgetSessions?.(uid);
      await cleanups.complete(job.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delayMs = retryDelayMs(job.attempts);
      await cleanups.retryLater(job.id, { error: message, delayMs }).catch((retryError: unknown) => {
        // The lease runs out by itself and the job is taken up again.
        deps.log.warn({ err: retryError }, 'could not reschedule an account clean-up');
      });
      if (auditsFailure(job.attempts)) {
        await deps.audit.bestEffort({
          ...event,
          outcome: 'failed',
          detail: `the sign-in account is not deleted yet${tries}: ${message}; retried in ${Math.round(delayMs / 1000)} s and until done`,
        });
      }
      return 'pending';
    }
    await deps.audit.bestEffort({
      ...event,
      outcome: 'ok',
      detail: `sessions ended and sign-in account deleted (uid ${uid})${tries}`,
    });
    return 'done';
  }

  /**
   * Takes up jobs one at a time and tries each, at most a batch; stops at the first failure, which leaves
   * the rest where they are (no lease, no attempt counted) for the next round.
   */
  async function work(takeOne: () => Promise<AccountCleanup[]>) {
    const outcome = { done: 0, pending: 0 };
    for (let i = 0; i < BATCH && outcome.pending === 0; i++) {
      const [job] = await takeOne();
      if (!job) break;
      outcome[await attempt(job)]++;
    }
    return outcome;
  }

  const runDue = () => work(() => cleanups.takeDue(1));

  function poll() {
    if (running) return round;
    running = true;
    round = runDue()
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not run the account clean-ups'))
      .finally(() => (running = false));
    return round;
  }

  return {
    attempt,
    /** The jobs due now, as the background round runs them. */
    runDue,
    /** Every pending job nobody is at, back-off or not (an operator's "now"). */
    runAll: () => work(() => cleanups.takeAny(1)),
    /**
     * The jobs of one address, before it is added again: its old account must be gone first, or the add
     * would adopt it. Answers how many are still pending afterwards.
     */
    /** Which of these addresses have a clean-up pending (a bulk add finishes those one by one). */
    pendingAmong: (emails: readonly string[]) => cleanups.pendingAmong(emails),
    async finishFor(email: string): Promise<number> {
      await work(() => cleanups.takeFor(email, 1));
      return cleanups.pendingFor(email);
    },
    start() {
      if (timer) return;
      timer = setInterval(() => void poll(), CLEANUP_POLL_MS);
      timer.unref();
      void poll();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await round;
    },
  };
}

export type AccountCleaner = ReturnType<typeof createAccountCleaner>;
