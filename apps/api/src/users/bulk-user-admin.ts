import {
  emailSchema,
  type BulkAddOutcome,
  type BulkAddResult,
  type BulkDeleteOutcome,
  type BulkDeleteResult,
} from '@portal/contract';
import { asUnavailable } from '../dependency-unavailable.ts';
import { DomainError } from '../domain-error.ts';
import { alreadyOnListMessage, type UserAdmin } from './user-admin.ts';

/**
 * Addresses worked on at once. The identity provider allows about 10 account deletions a second per project;
 * four at a time stays under that and still takes 1,000 addresses in seconds.
 */
export const BULK_CONCURRENCY = 4;

export const UNEXPECTED_FAILURE_MESSAGE = 'Something went wrong on our side with this address. Please try it again.';
/** A removal that holds while the identity provider is away: the account is deleted by the retrying clean-up. */
const ACCOUNT_CLEANUP_PENDING_MESSAGE =
  'Removed: they can no longer sign in. The sign-in service did not answer, so their sign-in account is deleted automatically once it does.';
/** For an address the call never reached because the caller went away (nobody is left to read it). */
const NOT_REACHED_MESSAGE = 'Not done: the request ended before this address was reached.';

export interface BulkUserAdminDeps {
  userAdmin: UserAdmin;
  log: { error(details: object, message: string): void };
  concurrency?: number;
  /**
   * Adds in batches (one query, one import, one insert, one audit write for many addresses); false: each
   * address on its own, as the single add does it (the benchmark's other side). Default true.
   */
  batched?: boolean;
}

interface BulkInput {
  inputs: readonly string[];
  actor: string;
  /** Aborted when the caller has gone: addresses not yet started are left alone. */
  signal?: AbortSignal;
}

type Outcome<O extends string> = { outcome: O; message?: string };

/**
 * The bulk calls: many addresses through the one user admin, so each is added (or removed) exactly as the
 * single call does it, checked, kept in step with the identity provider and audited on its own. One
 * address's failure is its result, never the whole call's. The same address twice in one call is worked on
 * once; its repeats get the same answer. Results come back in the order the addresses were sent.
 */
export function createBulkUserAdmin(deps: BulkUserAdminDeps) {
  const { userAdmin, log } = deps;
  const concurrency = deps.concurrency ?? BULK_CONCURRENCY;

  /** A failure of one address in words for the admin: a refusal's own message, an outage's, else a generic one. */
  function failureOf(error: unknown, email: string): { kind: DomainError['kind'] | 'internal'; message: string } {
    const unavailable = asUnavailable(error);
    if (unavailable) return { kind: 'unavailable', message: unavailable.message };
    if (error instanceof DomainError) return { kind: error.kind, message: error.message };
    log.error({ err: error, target: email }, 'bulk user change failed unexpectedly');
    return { kind: 'internal', message: UNEXPECTED_FAILURE_MESSAGE };
  }

  async function run<O extends string>(
    { inputs, signal }: BulkInput,
    outcomes: { invalid: O; failed: O },
    work: (email: string) => Promise<Outcome<O>>,
    /** Decides many addresses at once; those it leaves out go through `work`. */
    batch?: (emails: string[]) => Promise<Map<string, Outcome<O>>>,
  ): Promise<(Outcome<O> & { input: string })[]> {
    const byEmail = new Map<string, Promise<Outcome<O>>>();
    let queue: { email: string; settle: (outcome: Outcome<O>) => void }[] = [];
    const answers = inputs.map((input) => {
      const parsed = emailSchema.safeParse(input);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'Invalid email address';
        return Promise.resolve({ outcome: outcomes.invalid, message });
      }
      const email = parsed.data;
      let outcome = byEmail.get(email);
      if (!outcome) {
        outcome = new Promise<Outcome<O>>((settle) => queue.push({ email, settle }));
        byEmail.set(email, outcome);
      }
      return outcome;
    });
    if (batch && queue.length > 0 && !signal?.aborted) {
      const decided = await batch(queue.map((next) => next.email));
      queue = queue.filter((next) => {
        const outcome = decided.get(next.email);
        if (outcome) next.settle(outcome);
        return !outcome;
      });
    }
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (signal?.aborted) next.settle({ outcome: outcomes.failed, message: NOT_REACHED_MESSAGE });
        else next.settle(await work(next.email));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
    return Promise.all(answers.map(async (answer, index) => ({ input: inputs[index]!, ...(await answer) })));
  }

  return {
    /**
     * Each address added and audited as the single add does it (its account and its row, registered): in
     * batches where the whole batch is alike, else on its own.
     */
    async addUsers(input: BulkInput & { finance?: boolean }): Promise<BulkAddResult[]> {
      const finance = input.finance ?? false;
      const addInBatch = async (emails: string[]) => {
        const decided = new Map<string, Outcome<BulkAddOutcome>>();
        const { added, onList, failed } = await userAdmin.addUsersInBatch({ emails, finance, actor: input.actor });
        for (const email of added) decided.set(email, { outcome: 'added' });
        for (const email of onList) decided.set(email, { outcome: 'exists', message: alreadyOnListMessage(email) });
        for (const [email, error] of failed)
          decided.set(email, { outcome: 'failed', message: failureOf(error, email).message });
        return decided;
      };
      return run<BulkAddOutcome>(
        input,
        { invalid: 'invalid', failed: 'failed' },
        async (email) => {
          try {
            await userAdmin.addUser({ email, actor: input.actor, finance });
            return { outcome: 'added' };
          } catch (error) {
            const failure = failureOf(error, email);
            return failure.kind === 'conflict'
              ? { outcome: 'exists', message: failure.message }
              : { outcome: 'failed', message: failure.message };
          }
        },
        (deps.batched ?? true) ? addInBatch : undefined,
      );
    },

    /** The single delete for each address; the caller's own and the last administrator are refused as there. */
    async removeUsers(input: BulkInput): Promise<BulkDeleteResult[]> {
      return run<BulkDeleteOutcome>(input, { invalid: 'invalid', failed: 'failed' }, async (email) => {
        try {
          const { accountCleanup } = await userAdmin.removeUser({ email, actor: input.actor });
          return accountCleanup === 'done'
            ? { outcome: 'deleted' }
            : { outcome: 'deleted', message: ACCOUNT_CLEANUP_PENDING_MESSAGE };
        } catch (error) {
          const failure = failureOf(error, email);
          if (failure.kind === 'not-found') return { outcome: 'not-found', message: failure.message };
          if (failure.kind === 'conflict' || failure.kind === 'forbidden')
            return { outcome: 'refused', message: failure.message };
          return { outcome: 'failed', message: failure.message };
        }
      });
    },
  };
}

export type BulkUserAdmin = ReturnType<typeof createBulkUserAdmin>;
