import type { AuditEvent } from '../audit/repository.ts';
import type { JobQueue } from './job-queue.ts';
import { backoffMs } from './loops.ts';

type AuditLine = Omit<AuditEvent, 'at'>;

/** What one successful try came to: its outcome (counted) and the audit line written once the job is gone. */
export interface JobDone<Outcome extends string> {
  outcome: Outcome;
  audit: AuditLine;
}

export interface Backoff {
  firstMs: number;
  longestMs: number;
}

/** `firstMs` after the first failure, doubling, at most `longestMs` apart. */
export const retryDelayMs = (attempts: number, backoff: Backoff) =>
  Math.min(backoff.firstMs * 2 ** Math.max(0, attempts - 1), backoff.longestMs);

/** The first failure is audited, then the 2nd, 4th, 8th…: an outage of hours adds a dozen entries, not thousands. */
export const auditsFailure = (attempts: number) => attempts > 0 && (attempts & (attempts - 1)) === 0;

export interface JobKind<Job extends { id: number; attempts: number }, Outcome extends string> {
  /** The queue's name in the metrics and the logs. */
  name: string;
  queue: JobQueue<Job>;
  /** Every outcome `perform` may answer, counted from 0 in a round's result. */
  outcomes: readonly Outcome[];
  /**
   * One try of a job the worker holds. Throws when it failed and must be tried again; answers undefined when
   * it can do nothing now (the job stays held until its lease runs out).
   */
  perform(job: Job): Promise<JobDone<Outcome> | undefined>;
  /** The audit line of a failed try (written for the thinned failures only). */
  failureAudit(job: Job, failure: { message: string; delayMs: number }): AuditLine;
  backoff: Backoff;
  /** How often the queue is looked at when nothing woke the worker. */
  pollMs: number;
  /** Tried per round at most; a round stops at the first failure, since what it calls is then likely down. */
  batch: number;
}

export interface JobWorkerDeps {
  audit: { bestEffort(event: AuditLine): Promise<void> };
  log: { warn(details: object, message: string): void };
  /** Told of every failed try (the metrics count them per queue). */
  onFailure?: (queue: string) => void;
}

/**
 * Works off one queue: a round takes one due job at a time and tries it, at most a batch, until one fails;
 * a failure is put back with a growing back-off and audited thinly. Rounds run every `pollMs`, and at once
 * when woken (a job this process just queued); one round at a time, and a wake during a round adds one more.
 * A round that fails as a whole (the queue cannot be read) makes the next ones wait longer, until one works.
 */
export function createJobWorker<Job extends { id: number; attempts: number }, Outcome extends string>(
  kind: JobKind<Job, Outcome>,
  deps: JobWorkerDeps,
) {
  const { queue } = kind;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> = Promise.resolve();
  let running = false;
  let again = false;
  // Rounds that failed in a row (the queue could not be read: the database is away): the timer's next round
  // waits the longer (loops.ts `backoffMs`); a wake still runs one, since whoever queued a job just wrote.
  let failedRounds = 0;
  let notBefore = 0;

  /** One try of one job the caller holds. */
  async function attempt(job: Job): Promise<Outcome | 'pending'> {
    let done: JobDone<Outcome> | undefined;
    try {
      done = await kind.perform(job);
      // Inside the try: a job that could not be marked done is tried again, and its work is redone then.
      if (done) await queue.complete(job.id);
    } catch (error) {
      deps.onFailure?.(kind.name);
      const message = error instanceof Error ? error.message : String(error);
      const delayMs = retryDelayMs(job.attempts, kind.backoff);
      await queue.retryLater(job.id, { error: message, delayMs }).catch((retryError: unknown) => {
        // The lease runs out by itself and the job is taken again.
        deps.log.warn({ err: retryError, queue: kind.name }, 'could not reschedule a background job');
      });
      if (auditsFailure(job.attempts)) await deps.audit.bestEffort(kind.failureAudit(job, { message, delayMs }));
      return 'pending';
    }
    if (!done) return 'pending';
    await deps.audit.bestEffort(done.audit);
    return done.outcome;
  }

  /** Takes jobs one at a time with `takeOne` and tries each, at most a batch, stopping at the first not done. */
  async function work(takeOne: () => Promise<Job[]>) {
    const outcome = Object.fromEntries([...kind.outcomes, 'pending'].map((name) => [name, 0])) as Record<
      Outcome | 'pending',
      number
    >;
    for (let i = 0; i < kind.batch && outcome.pending === 0; i++) {
      const [job] = await takeOne();
      if (!job) break;
      outcome[await attempt(job)]++;
    }
    return outcome;
  }

  const runDue = () => work(() => queue.takeDue(1));

  function poll(): Promise<unknown> {
    if (running) {
      again = true;
      return round;
    }
    running = true;
    round = (async () => {
      do {
        again = false;
        await runDue();
      } while (again);
    })()
      .then(
        () => {
          failedRounds = 0;
          notBefore = 0;
        },
        (error: unknown) => {
          failedRounds++;
          notBefore = performance.now() + backoffMs(kind.pollMs, failedRounds);
          deps.log.warn({ err: error, queue: kind.name }, 'could not run background jobs');
        },
      )
      .finally(() => (running = false));
    return round;
  }

  /** The timer's round, unless the last ones failed and their back-off has not passed. */
  const pollWhenDue = () => {
    if (performance.now() >= notBefore) void poll();
  };

  return {
    name: kind.name,
    queue,
    attempt,
    work,
    runDue,
    /** A round now, if the worker runs: for a job this process just queued. */
    wake() {
      if (timer) void poll();
    },
    isRunning: () => timer !== undefined,
    start() {
      if (timer) return;
      timer = setInterval(pollWhenDue, kind.pollMs);
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

export type JobWorker<Job extends { id: number; attempts: number }, Outcome extends string> = ReturnType<
  typeof createJobWorker<Job, Outcome>
>;
