import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { InvoiceRefusedError, type ReadInvoice, type ReadInvoiceLimits } from './read-invoice.ts';
import { ReadingBudgetError } from './reading-budget.ts';
import { inSpan } from '../../observability/spans.ts';

/** What the pool sends a reader process (reader-process.ts): one upload and the limits to read it with. */
export interface ReaderRequest {
  bytes: Uint8Array;
  limits: ReadInvoiceLimits;
}

/** What a reader process answers: 'ready' once, then one reply per request. */
export type ReaderReply =
  | 'ready'
  | { ok: true; read: ReadInvoice }
  | { ok: false; kind: 'refused' | 'over-budget' | 'failed'; message: string };

export interface InvoiceReaderPoolOptions {
  /** Reader processes at most, each reading one file at a time: the ingest limit (MAX_CONCURRENT_INGESTS). */
  size: number;
  /** Wall-clock time one file may take; the reader is then killed and the file refused. */
  timeoutMs: number;
  /** A reader's JavaScript heap (V8's old generation); past it the reader dies and the file is refused. */
  maxHeapMb: number;
  /**
   * A reader's resident memory, everything in it (heap, buffers, PDF.js's and zlib's native memory): past it
   * the reader is killed and the file refused. Watched from this process while a file is read (Linux only:
   * read from /proc; elsewhere the heap limit is the only bound).
   */
  maxRssMb: number;
  /** A reader is replaced after this many files, so nothing one file left behind (pdf-lib's name cache) grows. */
  filesPerProcess: number;
  /**
   * Load PDF.js (a hybrid's visible-text check) before taking a file, so its loading time — seconds on a busy
   * machine — is not spent from the file's deadline. Off only in tests that need a reader smaller than PDF.js.
   */
  loadPdfJsAtStart: boolean;
}

/** The reader's argument that asks it to load PDF.js before it says it is ready. */
export const LOAD_PDF_JS_AT_START = '--load-pdf-js';

/**
 * Measured: a 10 MB UBL invoice of 7,500 lines (the largest the default upload limit lets in) reads in
 * about a second on an idle core and needs between 64 and 96 MB of heap, and takes a reader from about 140 to
 * about 305 MiB resident; a typical invoice, a few milliseconds and a few MB. The deadline leaves room for a
 * busy machine (INVOICE_READ_TIMEOUT_MS), the memory ceiling for that invoice (INVOICE_READER_MEMORY_MB).
 */
export const DEFAULT_READER_POOL_OPTIONS: Omit<InvoiceReaderPoolOptions, 'size'> = {
  timeoutMs: 10_000,
  maxHeapMb: 224,
  maxRssMb: 352,
  filesPerProcess: 200,
  loadPdfJsAtStart: true,
};

// From source the reader is the .ts file beside this one; the build bundles it as invoice-reader.js beside
// server.js and cli.js (packages/dev-stack/src/builds.ts), where this module's own code then lives.
const READER_PATH = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('./reader-process.ts', import.meta.url)
    : new URL('./invoice-reader.js', import.meta.url),
);

/** How often a reader's resident memory is looked at while it reads: a bomb inflates about 1 MB a millisecond. */
const RSS_WATCH_MS = 20;

/** A reader's resident memory in bytes, from /proc; null where there is none (not Linux) or it has exited. */
function residentBytes(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kilobytes === undefined ? null : Number(kilobytes) * 1024;
  } catch {
    return null;
  }
}

/**
 * A reader's Node arguments, all of them: none of its parent's pass on. The parent's are whatever started it —
 * tsx's hooks (`npm run portal` from source), the API test runner's `--import`, `--inspect`, `--watch`, source
 * maps, its own heap size — and each would spend a memory ceiling sized for reading one file (tsx's hooks alone
 * took a reader to 370 MB for a 2 kB PDF; with source maps, formatting an error's stack loads PDF.js's maps,
 * megabytes of them) or make the reader something else. Node strips the reader's types itself (22.18 and
 * later, below the engines' floor), so it needs none of them.
 */
export function readerExecArgv(maxHeapMb: number): string[] {
  return [
    `--max-old-space-size=${maxHeapMb}`,
    // V8 grows the young generation with a reader's allocation rate, and when it does, the largest invoice the
    // upload limit lets in peaks 60-100 MB higher (measured: 319-405 MB, past the ceiling half the time,
    // against 234-259 MB with this cap), at no measurable cost in reading time.
    '--max-semi-space-size=4',
  ];
}

/** How V8 says it ran out of heap, on the reader's stderr just before it aborts. */
const OUT_OF_HEAP = /heap limit|heap out of memory/i;

interface PooledReader {
  child: ChildProcess;
  ready: Promise<void>;
  files: number;
  /** The start of what the reader wrote to stderr: V8's headline when it runs out of heap, before its stacks. */
  stderr: string;
}

/**
 * Reads untrusted uploads in child processes: pdf-lib, PDF.js and saxes work synchronously, so a hostile file
 * read on the main thread would stop every other request for as long as it takes, and could take the
 * process's memory with it. Worker threads were tried first and are not enough: a worker that reaches its
 * heap limit inside some allocations aborts the whole process ("FATAL ERROR: Reached heap limit", seen with
 * a genuine Factur-X file under PDF.js), which is a known limit of V8 isolates sharing one process. A reader
 * process that runs out of heap dies alone. Each reader has a heap limit (--max-old-space-size) and each file
 * a deadline; a reader that overruns either is killed and the file refused with ReadingBudgetError. Readers
 * are kept between files (starting one costs about a tenth of a second; reading a typical invoice a few
 * milliseconds) and replaced after a failure or `filesPerProcess` files. An idle reader does not keep the
 * process alive, and a reader whose parent is gone exits (reader-process.ts).
 */
export function createInvoiceReaderPool(options: InvoiceReaderPoolOptions) {
  const idle: PooledReader[] = [];
  const all = new Set<PooledReader>();
  const waiting: ((pooled: PooledReader) => void)[] = [];
  let closed = false;
  let started = 0;
  let peakRssBytes = 0;
  let lastPeakRssBytes = 0;
  const memoryRefusal = (megabytes: number) =>
    new ReadingBudgetError(
      `The invoice is refused: reading it needs more than the ${megabytes} MB of memory one file may use.`,
    );

  function spawn(): PooledReader {
    started += 1;
    const child = fork(READER_PATH, options.loadPdfJsAtStart ? [LOAD_PDF_JS_AT_START] : [], {
      execArgv: readerExecArgv(options.maxHeapMb),
      // Typed arrays cross as they are (structured clone), not as JSON.
      serialization: 'advanced',
      // The reader reads bytes and answers messages; it has no business with the parent's secrets.
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const pooled: PooledReader = { child, ready: Promise.resolve(), files: 0, stderr: '' };
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (pooled.stderr.length < 4000) pooled.stderr = (pooled.stderr + chunk).slice(0, 4000);
    });
    // A reader that cannot be reached any more (it died) answers through 'exit'; the write error is not news.
    child.on('error', () => undefined);
    pooled.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (reply: ReaderReply) => {
        if (reply !== 'ready') return;
        child.off('exit', onExit);
        resolve();
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        reject(
          new Error(`The invoice reader stopped while starting (${code ?? signal}): ${pooled.stderr.slice(0, 1000)}`),
        );
      child.once('message', onMessage).once('exit', onExit);
    });
    all.add(pooled);
    // Awaited by whoever takes it; until then a failed start must not be an unhandled rejection.
    pooled.ready.catch(() => retire(pooled));
    return pooled;
  }

  function retire(pooled: PooledReader) {
    if (!all.delete(pooled)) return;
    const idleAt = idle.indexOf(pooled);
    if (idleAt !== -1) idle.splice(idleAt, 1);
    pooled.child.kill('SIGKILL');
    // A slot is free: someone waiting gets a new reader.
    const next = waiting.shift();
    if (next) next(spawn());
  }

  function acquire(): Promise<PooledReader> {
    const pooled = idle.pop();
    if (pooled) return Promise.resolve(pooled);
    if (all.size < options.size) return Promise.resolve(spawn());
    return new Promise((resolve) => waiting.push(resolve));
  }

  const keepAlive = ({ child }: PooledReader, on: boolean) => {
    // The process, its IPC channel and the stderr pipe (a socket) each hold the event loop while referenced.
    for (const handle of [child, child.channel, child.stderr as Socket | null]) {
      if (on) handle?.ref();
      else handle?.unref();
    }
  };

  function giveBack(pooled: PooledReader) {
    if (closed || pooled.files >= options.filesPerProcess) return retire(pooled);
    const next = waiting.shift();
    if (next) return next(pooled);
    keepAlive(pooled, false);
    idle.push(pooled);
  }

  /** One file read in a reader process, in a span of its own (its time includes waiting for a free reader). */
  function read(bytes: Uint8Array, limits: ReadInvoiceLimits): Promise<ReadInvoice> {
    return inSpan('e-invoice read', { 'portal.invoice.bytes': bytes.length }, () => readInProcess(bytes, limits));
  }

  async function readInProcess(bytes: Uint8Array, limits: ReadInvoiceLimits): Promise<ReadInvoice> {
    if (closed) throw new Error('The invoice reader pool is closed');
    const pooled = await acquire();
    keepAlive(pooled, true);
    try {
      await pooled.ready;
    } catch (error) {
      retire(pooled);
      throw error;
    }
    pooled.files += 1;
    const { child } = pooled;
    lastPeakRssBytes = 0;
    return new Promise<ReadInvoice>((resolve, reject) => {
      const finish = (reusable: boolean, outcome: ReadInvoice | Error) => {
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onMessage).off('exit', onExit);
        // A reader left holding most of its ceiling would refuse the next, innocent file: a fresh one reads it.
        const settled = residentBytes(child.pid);
        if (settled !== null) observe(settled);
        const heavy = settled !== null && settled > options.maxRssMb * 1024 * 1024 * 0.75;
        if (reusable && !heavy) giveBack(pooled);
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
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        // stderr may still hold V8's last words when 'exit' comes; 'close' waits for it.
        child.once('close', () => {
          if (OUT_OF_HEAP.test(pooled.stderr)) return finish(false, memoryRefusal(options.maxHeapMb));
          finish(false, new Error(`The invoice reader stopped (${code ?? signal}): ${pooled.stderr.slice(0, 1000)}`));
        });
      };
      const observe = (bytes: number) => {
        lastPeakRssBytes = Math.max(lastPeakRssBytes, bytes);
        peakRssBytes = Math.max(peakRssBytes, bytes);
      };
      // The heap limit does not cover buffers and native memory (an inflating stream, PDF.js's typed arrays):
      // the resident size does, and a reader past it is killed before it takes the container with it.
      const watch = setInterval(() => {
        const bytes = residentBytes(child.pid);
        if (bytes === null) return;
        observe(bytes);
        if (bytes > options.maxRssMb * 1024 * 1024) finish(false, memoryRefusal(options.maxRssMb));
      }, RSS_WATCH_MS);
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
      child.on('message', onMessage).once('exit', onExit);
      child.send({ bytes, limits } satisfies ReaderRequest);
    });
  }

  return {
    read,
    /** How many reader processes are running, for tests and metrics. */
    get processes() {
      return all.size;
    },
    /** The highest resident memory any reader reached while reading, in bytes (0 where it cannot be seen). */
    get peakRssBytes() {
      return peakRssBytes;
    },
    /** The highest resident memory of the reader during the latest read, in bytes. */
    get lastReadPeakRssBytes() {
      return lastPeakRssBytes;
    },
    /** How many readers were ever started: one more after each failure and each `filesPerProcess` files. */
    get started() {
      return started;
    },
    async close() {
      closed = true;
      const readers = [...all];
      all.clear();
      idle.length = 0;
      await Promise.all(
        readers.map(
          (pooled) =>
            new Promise<void>((resolve) => {
              const { child } = pooled;
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              // An idle reader does not hold the event loop: without this, a process with nothing else to do
              // would end with the close still unsettled.
              keepAlive(pooled, true);
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}

export type InvoiceReaderPool = ReturnType<typeof createInvoiceReaderPool>;
