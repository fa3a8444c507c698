/** Something that holds work in memory and writes it in batches; a failed write is its own to handle. */
export interface BufferedWriter {
  /** Writes what is held now. */
  flush(): Promise<unknown>;
  /** Writes what is still held, for the last time. */
  close(): Promise<unknown>;
}

/**
 * Runs `run` every `everyMs` (and once at start when asked), one run at a time: a run still under way when
 * the next is due makes that one skip. A run's failure is logged and the loop goes on.
 */
export function createLoop(options: {
  everyMs: number;
  run: () => Promise<unknown>;
  runAtStart?: boolean;
  onError: (error: unknown) => void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let underWay: Promise<unknown> | undefined;
  const tick = () => {
    if (underWay) return;
    underWay = Promise.resolve()
      .then(options.run)
      .catch(options.onError)
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
