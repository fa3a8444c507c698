import type { QueueStats } from './job-queue.ts';
import { createFlushLoop, createLoop, type BufferedWriter } from './loops.ts';

/** What a task is, for the list an operator reads: in what order it starts, what the metrics read of it. */
export type BackgroundTaskKind = 'queue' | 'writer' | 'timer' | 'listener' | 'resource';

export interface BackgroundTask {
  name: string;
  kind: BackgroundTaskKind;
  /** Absent for what only needs closing (a resource, or a writer's last write). */
  start?(): unknown;
  stop(): Promise<unknown>;
  isRunning?(): boolean;
  /** A queue's depth and age, read by the metrics at each scrape. */
  stats?(): Promise<QueueStats>;
}

/** A job worker as the registry needs it (job-worker.ts). */
interface QueueWorker {
  name: string;
  queue: { stats(): Promise<QueueStats> };
  start(): void;
  stop(): Promise<void>;
  isRunning(): boolean;
}

/**
 * Every piece of work the domain does off a request, in one list: start-up starts them in the order they were
 * added, shutdown stops them in the reverse order (so the job workers stop before the writers they feed make
 * their last write, and those before the connections they write through close), and the metrics read every
 * queue from it. A one-off job (a CLI command) never calls `start`, so nothing runs there; `close` still makes
 * the writers' last write.
 */
export function createBackgroundRegistry(options: { log: { error(details: object, message: string): void } }) {
  const { log } = options;
  const tasks: BackgroundTask[] = [];
  let started = false;
  const onError = (name: string) => (error: unknown) =>
    log.error(
      { err: error, task: name },
      'a background task failed; it runs again later, less often while it keeps failing',
    );

  function add<T extends BackgroundTask>(task: T): T {
    if (tasks.some((known) => known.name === task.name)) throw new Error(`a background task named ${task.name} exists`);
    tasks.push(task);
    return task;
  }

  return {
    add,
    /** A job queue and its worker: started and stopped with the rest, its depth and age in the metrics. */
    queue(worker: QueueWorker, opts: { enabled?: boolean } = {}) {
      add({
        name: worker.name,
        kind: 'queue',
        // A queue whose worker cannot do anything here (no mail relay) is still measured, never worked.
        start: () => (opts.enabled === false ? undefined : worker.start()),
        stop: () => worker.stop(),
        isRunning: () => worker.isRunning(),
        stats: () => worker.queue.stats(),
      });
    },
    /** An in-memory writer flushed every `everyMs`; its last write when the registry closes. */
    writer(name: string, writer: BufferedWriter, everyMs: number) {
      add({ name, kind: 'writer', ...createFlushLoop(writer, { everyMs, onError: onError(name) }) });
    },
    /** Periodic housekeeping (an expiry, a sweep). */
    every(name: string, everyMs: number, run: () => Promise<unknown>, opts: { runAtStart?: boolean } = {}) {
      add({
        name,
        kind: 'timer',
        ...createLoop({ everyMs, run, runAtStart: opts.runAtStart, onError: onError(name) }),
      });
    },
    /** Something opened at start-up and closed at shutdown (a LISTEN connection). */
    listener(name: string, open: () => Promise<{ close(): Promise<unknown> }>) {
      let opened: { close(): Promise<unknown> } | undefined;
      add({
        name,
        kind: 'listener',
        start: async () => {
          opened ??= await open();
        },
        stop: async () => {
          await opened?.close();
          opened = undefined;
        },
        isRunning: () => opened !== undefined,
      });
    },
    /** Something only to close at shutdown (a process pool, a mail relay's connections). */
    resource(name: string, close: () => Promise<unknown> | void) {
      add({ name, kind: 'resource', stop: async () => close() });
    },

    /** Every task by name and kind, in start-up order. */
    list: () => tasks.map(({ name, kind }) => ({ name, kind })),
    /** The names of the tasks running now (none before `start`, none after `close`). */
    running: () => tasks.filter((task) => task.isRunning?.() === true).map((task) => task.name),
    /** Every queue, for the metrics. */
    queues: () => tasks.flatMap((task) => (task.stats ? [{ name: task.name, stats: task.stats.bind(task) }] : [])),

    async start() {
      if (started) return;
      started = true;
      for (const task of tasks) await task.start?.();
    },
    /** Stops everything in the reverse order; one task's failure to stop is logged and the others still stop. */
    async close() {
      for (const task of [...tasks].reverse()) {
        try {
          await task.stop();
        } catch (error) {
          log.error({ err: error, task: task.name }, 'a background task did not stop cleanly');
        }
      }
    },
  };
}

export type BackgroundRegistry = ReturnType<typeof createBackgroundRegistry>;
