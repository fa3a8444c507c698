/** Something that holds work in memory and writes it in batches; a failed write is its own to handle. */
export interface BufferedWriter {
  /** Writes what is held now. */
  flush(): Promise<unknown>;
  /** Writes what is still held, for the last time. */
  close(): Promise<unknown>;
}

/** The longest a failing loop waits between two runs (unless its own pace is longer still). */
export const LONGEST_BACKOFF_MS = 60_000;

/**
 * How long a loop waits after its `failures`-th failure in a row: its pace doubling with each, at most
 * `longestMs` (or its own pace, when that is longer). A database that is away is asked again less and less
 * often, and its errors do not flood the log; the first success brings the loop's own pace back.
 */
export const backoffMs = (everyMs: number, failures: number, longestMs = LONGEST_BACKOFF_MS) =>
  failures <= 0 ? 0 : Math.min(everyMs * 2 ** failures, Math.max(longestMs, everyMs));

/**
 * Runs `run` every `everyMs` (and once at start when asked), one run at a time: a run still under way when
 * the next is due makes that one skip. A run's failure is logged and the loop goes on, backing off
 * (`backoffMs`) until a run succeeds again.
 */
export function createLoop(options: {
  everyMs: number;
  run: () => Promise<unknown>;
  runAtStart?: boolean;
  onError: (error: unknown) => void;
  longestBackoffMs?: number;
}) {
  let timer: NodeJS.Timeout | undefined;
  let underWay: Promise<unknown> | undefined;
  let failures = 0;
  let notBefore = 0;
  const tick = () => {
    if (underWay || performance.now() < notBefore) return;
    underWay = Promise.resolve()
      .then(options.run)
      .then(
        () => {
          failures = 0;
          notBefore = 0;
        },
        (error: unknown) => {
          failures++;
          notBefore = performance.now() + backoffMs(options.everyMs, failures, options.longestBackoffMs);
          options.onError(error);
        },
      )
      .finally(() => (underWay = undefined));
  };
  return {
    isRunning: () => timer !== undefined,
    start() {
      if (timer) return;
      timer = setInterval(tick, options.everyMs);
      timer.unref();
      if (options.runAtStart) tick();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await underWay;
    },
  };
}

/**
 * The flush loop of an in-memory writer: `flush` every `everyMs`, and `close` (its last write) when stopped.
 * The writer keeps its own failure policy (the audit writer counts what it loses, the recent-invoices list keeps
 * its opens for the next write, the rate limits keep their counts): the loop only reports what escapes it.
 */
export function createFlushLoop(
  writer: BufferedWriter,
  options: { everyMs: number; onError: (error: unknown) => void },
) {
  const loop = createLoop({ everyMs: options.everyMs, run: () => writer.flush(), onError: options.onError });
  return {
    isRunning: loop.isRunning,
    start: loop.start,
    async stop() {
      await loop.stop();
      await writer.close();
    },
  };
}
