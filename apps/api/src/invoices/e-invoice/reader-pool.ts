import { Worker } from 'node:worker_threads';
import { InvoiceRefusedError, type ReadInvoice, type ReadInvoiceLimits } from './read-invoice.ts';
import { ReadingBudgetError } from './reading-budget.ts';

/** What the pool sends a worker (read-worker.ts): one upload and the limits to read it with. */
export interface ReaderRequest {
  bytes: Uint8Array;
  limits: ReadInvoiceLimits;
}

/** What a worker answers: 'ready' once, then one reply per request. */
export type ReaderReply =
  | 'ready'
  | { ok: true; read: ReadInvoice }
  | { ok: false; kind: 'refused' | 'over-budget' | 'failed'; message: string };

export interface InvoiceReaderPoolOptions {
  /** Workers at most, each reading one file at a time: the ingest limit (MAX_CONCURRENT_INGESTS). */
  size: number;
  /** Wall-clock time one file may take; the worker is then stopped and the file refused. */
  timeoutMs: number;
  /** A worker's JavaScript heap (V8's old generation); past it the worker is stopped and the file refused. */
  maxHeapMb: number;
  /** A worker is replaced after this many files, so nothing one file left behind (pdf-lib's name cache) grows. */
  filesPerWorker: number;
}

/**
 * Measured: a 10 MB UBL invoice of 7,500 lines (the largest the default upload limit lets in) reads in
 * about a second on an idle core and needs between 64 and 96 MB of heap; a typical invoice, a few
 * milliseconds and a few MB. The deadline leaves room for a busy machine (INVOICE_READ_TIMEOUT_MS).
 */
export const DEFAULT_READER_POOL_OPTIONS: Omit<InvoiceReaderPoolOptions, 'size'> = {
  timeoutMs: 10_000,
  maxHeapMb: 256,
  filesPerWorker: 200,
};

// From source the worker is the .ts file beside this one; the build bundles it as invoice-reader.js beside
// server.js and cli.js (packages/dev-stack/src/builds.ts), where this module's own code then lives.
const WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./read-worker.ts', import.meta.url)
  : new URL('./invoice-reader.js', import.meta.url);

interface PooledWorker {
  worker: Worker;
  ready: Promise<void>;
  files: number;
}

/**
 * Reads untrusted uploads in worker threads: pdf-lib and saxes work synchronously, so a hostile file read on
 * the main thread would stop every other request for as long as it takes, and could take the process's
 * memory with it. Each worker has a heap limit and each file a deadline; a worker that overruns either is
 * terminated (which stops even a synchronous loop) and the file refused with ReadingBudgetError. Workers
 * are kept between files (starting one costs about a tenth to a third of a second; reading a typical invoice
 * a few milliseconds) and replaced after a failure or `filesPerWorker` files. An idle worker does not keep
 * the process alive.
 */
export function createInvoiceReaderPool(options: InvoiceReaderPoolOptions) {
  const idle: PooledWorker[] = [];
  const all = new Set<PooledWorker>();
  const waiting: ((pooled: PooledWorker) => void)[] = [];
  let closed = false;
  let started = 0;

  function spawn(): PooledWorker {
    started += 1;
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
      // Without source maps: formatting an error's stack would load the maps of the modules it passes through
      // (PDF.js's run to megabytes) into the worker's limited heap, for nothing anyone reads.
      // (Given only then: an explicit list is checked against what a worker may take, the inherited one is not.)
      ...(process.execArgv.includes('--enable-source-maps')
        ? { execArgv: process.execArgv.filter((arg) => arg !== '--enable-source-maps') }
        : {}),
      // The worker reads bytes and answers messages; it has no business with the parent's environment.
      env: {},
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (reply: ReaderReply) => {
        if (reply !== 'ready') return;
        worker.off('error', reject).off('exit', onExit);
        resolve();
      };
      const onExit = (code: number) =>
        reject(new Error(`The invoice reader stopped while starting (exit code ${code})`));
      worker.once('message', onMessage).once('error', reject).once('exit', onExit);
    });
    const pooled = { worker, ready, files: 0 };
    all.add(pooled);
    // Awaited by whoever takes it; until then a failed start must not be an unhandled rejection.
    ready.catch(() => retire(pooled));
    return pooled;
  }

  function retire(pooled: PooledWorker) {
    if (!all.delete(pooled)) return;
    const idleAt = idle.indexOf(pooled);
    if (idleAt !== -1) idle.splice(idleAt, 1);
    void pooled.worker.terminate();
    // A slot is free: someone waiting gets a new worker.
    const next = waiting.shift();
    if (next) next(spawn());
  }

  function acquire(): Promise<PooledWorker> {
    const pooled = idle.pop();
    if (pooled) return Promise.resolve(pooled);
    if (all.size < options.size) return Promise.resolve(spawn());
    return new Promise((resolve) => waiting.push(resolve));
  }

  function giveBack(pooled: PooledWorker) {
    if (closed || pooled.files >= options.filesPerWorker) return retire(pooled);
    const next = waiting.shift();
    if (next) return next(pooled);
    pooled.worker.unref();
    idle.push(pooled);
  }

  async function read(bytes: Uint8Array, limits: ReadInvoiceLimits): Promise<ReadInvoice> {
    if (closed) throw new Error('The invoice reader pool is closed');
    const pooled = await acquire();
    pooled.worker.ref();
    try {
      await pooled.ready;
    } catch (error) {
      retire(pooled);
      throw error;
    }
    pooled.files += 1;
    const { worker } = pooled;
    return new Promise<ReadInvoice>((resolve, reject) => {
      const finish = (reusable: boolean, outcome: ReadInvoice | Error) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (reusable) giveBack(pooled);
        else retire(pooled);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const onMessage = (reply: ReaderReply) => {
        if (reply === 'ready') return;
        if (reply.ok) return finish(true, reply.read);
        if (reply.kind === 'refused') return finish(true, new InvoiceRefusedError(reply.message));
        if (reply.kind === 'over-budget') return finish(true, new ReadingBudgetError(reply.message));
        // A bug in the reading code: kept out of the answer by the error handler, in the log with its stack.
        finish(false, new Error(`The invoice reader failed: ${reply.message}`));
      };
      const onError = (error: Error & { code?: string }) => {
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          return finish(
            false,
            new ReadingBudgetError(
              `The invoice is refused: reading it needs more than the ${options.maxHeapMb} MB of memory one file may use.`,
            ),
          );
        }
        finish(false, error);
      };
      const onExit = (code: number) => finish(false, new Error(`The invoice reader stopped (exit code ${code})`));
      const timer = setTimeout(
        () =>
          finish(
            false,
            new ReadingBudgetError(
              `The invoice is refused: reading it took longer than the ${options.timeoutMs / 1000} seconds one file may take.`,
            ),
          ),
        options.timeoutMs,
      );
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ bytes, limits } satisfies ReaderRequest);
    });
  }

  return {
    read,
    /** How many workers are running, for tests and metrics. */
    get workers() {
      return all.size;
    },
    /** How many workers were ever started: one more after each failure and each `filesPerWorker` files. */
    get started() {
      return started;
    },
    async close() {
      closed = true;
      const workers = [...all];
      all.clear();
      idle.length = 0;
      await Promise.all(workers.map(({ worker }) => worker.terminate()));
    },
  };
}

export type InvoiceReaderPool = ReturnType<typeof createInvoiceReaderPool>;
