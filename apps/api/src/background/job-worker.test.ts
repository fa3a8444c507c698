import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JobQueue } from './job-queue.ts';
import { auditsFailure, createJobWorker, retryDelayMs, type JobKind } from './job-worker.ts';

interface Job {
  id: number;
  attempts: number;
}

/** A queue in memory, as the database's would answer: a job taken counts an attempt. */
function memoryQueue(ids: number[]) {
  const jobs = new Map(ids.map((id) => [id, { id, attempts: 0, held: false }]));
  const retries: { id: number; delayMs: number; error: string }[] = [];
  const queue: JobQueue<Job> = {
    async takeDue(limit) {
      const free = [...jobs.values()].filter((job) => !job.held).slice(0, limit);
      for (const job of free) {
        job.held = true;
        job.attempts++;
      }
      return free.map(({ id, attempts }) => ({ id, attempts }));
    },
    takeAny(limit) {
      return this.takeDue(limit);
    },
    async complete(id) {
      jobs.delete(id);
    },
    async retryLater(id, failure) {
      retries.push({ id, ...failure });
      const job = jobs.get(id)!;
      job.held = false;
    },
    async stats() {
      return { pending: jobs.size, oldestAgeSeconds: 0 };
    },
  };
  return { queue, jobs, retries };
}

function kindOf(queue: JobQueue<Job>, perform: JobKind<Job, 'done'>['perform']): JobKind<Job, 'done'> {
  return {
    name: 'test-jobs',
    queue,
    outcomes: ['done'],
    perform,
    failureAudit: (job, failure) => ({
      actor: 'system',
      action: 'users.account-cleanup',
      target: String(job.id),
      outcome: 'failed',
      detail: `${failure.message} (${failure.delayMs} ms)`,
    }),
    backoff: { firstMs: 5_000, longestMs: 60_000 },
    pollMs: 60_000,
    batch: 3,
  };
}

const quietLog = { warn: () => {} };

describe('the background job worker', () => {
  it('backs off 5 s doubling to its ceiling, and audits the 1st, 2nd, 4th, 8th… failure only', () => {
    const backoff = { firstMs: 5_000, longestMs: 60_000 };
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 9].map((attempts) => retryDelayMs(attempts, backoff)),
      [5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000],
    );
    assert.deepEqual(Array.from({ length: 17 }, (_, index) => index).filter(auditsFailure), [1, 2, 4, 8, 16]);
  });

  it('does a batch a round, completes and audits what is done', async () => {
    const { queue, jobs } = memoryQueue([1, 2, 3, 4]);
    const audits: string[] = [];
    const worker = createJobWorker(
      kindOf(queue, async (job) => ({
        outcome: 'done',
        audit: { actor: 'system', action: 'users.account-cleanup', target: String(job.id), outcome: 'ok' },
      })),
      { audit: { bestEffort: async (event) => void audits.push(`${event.target} ${event.outcome}`) }, log: quietLog },
    );
    assert.deepEqual(await worker.runDue(), { done: 3, pending: 0 }, 'at most a batch');
    assert.deepEqual(audits, ['1 ok', '2 ok', '3 ok']);
    assert.deepEqual([...jobs.keys()], [4]);
  });

  it('puts a failed job back with its back-off, stops the round there, and counts and thins the failures', async () => {
    const { queue, retries } = memoryQueue([1, 2]);
    const audits: string[] = [];
    const failures: string[] = [];
    const worker = createJobWorker(
      kindOf(queue, async () => {
        throw new Error('the provider is away');
      }),
      {
        audit: { bestEffort: async (event) => void audits.push(event.detail ?? '') },
        log: quietLog,
        onFailure: (name) => failures.push(name),
      },
    );
    for (let round = 0; round < 4; round++) assert.deepEqual(await worker.runDue(), { done: 0, pending: 1 });
    assert.deepEqual(
      retries.map((retry) => [retry.id, retry.delayMs]),
      [
        [1, 5_000],
        [1, 10_000],
        [1, 20_000],
        [1, 40_000],
      ],
      'one job a round, never the next after a failure, each back-off doubled',
    );
    assert.deepEqual(failures, ['test-jobs', 'test-jobs', 'test-jobs', 'test-jobs'], 'every failure counted');
    assert.deepEqual(
      audits,
      ['the provider is away (5000 ms)', 'the provider is away (10000 ms)', 'the provider is away (40000 ms)'],
      'the 3rd failure is not audited',
    );
  });

  it('leaves a job it can do nothing with to its lease: neither done nor failed', async () => {
    const { queue, jobs, retries } = memoryQueue([1]);
    const worker = createJobWorker(
      kindOf(queue, async () => undefined),
      { audit: { bestEffort: async () => {} }, log: quietLog },
    );
    assert.deepEqual(await worker.runDue(), { done: 0, pending: 1 });
    assert.equal(jobs.get(1)?.held, true, 'still held');
    assert.deepEqual(retries, []);
  });

  it('runs rounds only while started, and a stop waits for the round under way', async () => {
    const { queue, jobs } = memoryQueue([1]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const worker = createJobWorker(
      kindOf(queue, async (job) => {
        await gate;
        return {
          outcome: 'done',
          audit: { actor: null, action: 'users.account-cleanup', target: String(job.id), outcome: 'ok' },
        };
      }),
      { audit: { bestEffort: async () => {} }, log: quietLog },
    );
    worker.wake();
    assert.equal(jobs.get(1)?.held, false, 'a worker not started does nothing when woken');
    worker.start();
    assert.equal(worker.isRunning(), true);
    const stopped = worker.stop();
    release();
    await stopped;
    assert.equal(worker.isRunning(), false);
    assert.equal(jobs.size, 0, 'the round under way finished before the stop returned');
  });
});

describe('a job worker whose database is away', () => {
  it('backs off between failed rounds instead of asking again every turn, and keeps its pace once it answers', async () => {
    const { queue } = memoryQueue([]);
    let away = true;
    let takes = 0;
    const takeDue = queue.takeDue.bind(queue);
    queue.takeDue = async (limit) => {
      takes++;
      if (away) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      return takeDue(limit);
    };
    const warnings: string[] = [];
    const worker = createJobWorker(
      { ...kindOf(queue, async () => undefined), pollMs: 10 },
      { audit: { bestEffort: async () => {} }, log: { warn: (_details, message) => warnings.push(message) } },
    );
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 700));
    // At its own pace, 70 rounds; backing off (20, 40, 80, 160, 320 ms…), a handful. A busy machine runs fewer.
    assert.ok(takes >= 2 && takes <= 8, `${takes} rounds in 700 ms`);
    assert.equal(warnings.length, takes);

    away = false;
    const before = takes;
    const deadline = performance.now() + 10_000;
    while (takes < before + 5 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await worker.stop();
    assert.ok(takes >= before + 5, 'back at its own pace once the queue answers');
  });
});
