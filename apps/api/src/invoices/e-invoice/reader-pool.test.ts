import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { contentBombs, manyElementsXml, slowTextXml } from '../../../test/helpers/upload-bombs.ts';
import { DEFAULT_READ_LIMITS, InvoiceRefusedError, readInvoice } from './read-invoice.ts';
import {
  createInvoiceReaderPool,
  DEFAULT_READER_POOL_OPTIONS,
  readerExecArgv,
  type InvoiceReaderPool,
} from './reader-pool.ts';
import { ReadingBudgetError } from './reading-budget.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

const fixture = readEInvoiceFixture;
/**
 * A heap a reader starts in but PDF.js does not load in. Measured from source on a busy 2-core machine: a reader
 * started in 15 MB and up (in 14 MB, 2 of 6 died while starting, and one of 16 MB once did under load: its
 * peak while loading modules was 17.2 MB), and PDF.js failed to load in 22 MB and loaded in 24. Between the two,
 * with room on both sides; a PDF.js that needs less would fail this file's PDF test, not pass it silently.
 */
const SMALL_HEAP_MB = 20;
const run = promisify(execFile);

describe('the invoice reader pool', () => {
  const pools: InvoiceReaderPool[] = [];
  const pool = (options: Partial<Parameters<typeof createInvoiceReaderPool>[0]> = {}) => {
    const created = createInvoiceReaderPool({ ...DEFAULT_READER_POOL_OPTIONS, size: 1, ...options });
    pools.push(created);
    return created;
  };
  after(() => Promise.all(pools.map((created) => created.close())));

  it('reads invoices in a child process exactly as on this thread, and refuses what the reader refuses', async () => {
    const readers = pool();
    for (const name of ['facturx-en16931.pdf', 'xrechnung-ubl.xml', 'plain.pdf', 'peppol-credit-note.xml']) {
      const bytes = await fixture(name);
      const read = await readers.read(bytes, DEFAULT_READ_LIMITS);
      const expected = await readInvoice(bytes);
      // Structured cloning hands back plain Uint8Arrays: the bytes are what count.
      assert.deepEqual(
        { ...read, xml: read.xml && Buffer.from(read.xml) },
        {
          ...expected,
          xml: expected.xml && Buffer.from(expected.xml),
        },
      );
    }
    await assert.rejects(readers.read(await fixture('hostile-xxe.xml'), DEFAULT_READ_LIMITS), InvoiceRefusedError);
    assert.equal(readers.processes, 1, 'one reader read them all');
  });

  it('stops a read that overruns its time, refuses the file, and reads the next one with a new reader', async () => {
    const readers = pool({ timeoutMs: 300 });
    await readers.read(await fixture('xrechnung-cii.xml'), DEFAULT_READ_LIMITS);
    // Within every limit, but seconds of work: only the deadline stops it.
    const started = performance.now();
    await assert.rejects(readers.read(slowTextXml(9), DEFAULT_READ_LIMITS), (error: unknown) => {
      assert.ok(error instanceof ReadingBudgetError);
      assert.match(error.message, /took longer than the 0.3 seconds one file may take/);
      return true;
    });
    const refusedMs = performance.now() - started;
    assert.ok(refusedMs < 3000, `refused after ${refusedMs.toFixed(0)} ms`);
    const read = await readers.read(await fixture('xrechnung-cii.xml'), DEFAULT_READ_LIMITS);
    assert.equal(read.format, 'cii');
  });

  it('stops a read that needs more memory than its heap limit, and keeps reading after', async () => {
    const readers = pool({ maxHeapMb: SMALL_HEAP_MB, timeoutMs: 30_000, loadPdfJsAtStart: false });
    // Under the element limit, but a tree of 400,000 elements does not fit in a small heap.
    const limits = { ...DEFAULT_READ_LIMITS, xml: { ...DEFAULT_READ_LIMITS.xml, maxElements: 400_000 } };
    const bomb = manyElementsXml(1.5);
    await assert.rejects(readers.read(bomb, limits), (error: unknown) => {
      assert.ok(error instanceof ReadingBudgetError, String(error));
      assert.match(error.message, new RegExp(`needs more than the ${SMALL_HEAP_MB} MB of memory one file may use`));
      return true;
    });
    assert.equal((await readers.read(await fixture('peppol-invoice.xml'), DEFAULT_READ_LIMITS)).format, 'ubl');
  });

  it("loses only the reader when a hybrid's visible-text check runs out of heap, and reads the next file", async () => {
    // Loading PDF.js (for any PDF's visible text) does not fit in the small heap. In a worker thread a heap overrun
    // like this once aborted the whole process (V8's "Reached heap limit" is not always caught per isolate); a
    // reader process dies alone and the file is refused.
    const readers = pool({ maxHeapMb: SMALL_HEAP_MB, timeoutMs: 30_000, loadPdfJsAtStart: false });
    const outcomes = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      outcomes.push(
        await readers.read(await fixture('facturx-en16931.pdf'), DEFAULT_READ_LIMITS).then(
          () => 'read',
          (error: unknown) => (error instanceof ReadingBudgetError ? error.message : `unexpected: ${String(error)}`),
        ),
      );
    }
    assert.deepEqual(
      outcomes,
      Array(3).fill(
        `The invoice is refused: reading it needs more than the ${SMALL_HEAP_MB} MB of memory one file may use.`,
      ),
    );
    assert.equal(readers.started, 3, 'each refusal cost its reader');
    assert.equal((await readers.read(await fixture('peppol-invoice.xml'), DEFAULT_READ_LIMITS)).format, 'ubl');
  });

  it('kills a reader whose resident memory passes its ceiling, which its heap limit does not see', async () => {
    // Inflated page content is held in buffers, outside V8's heap: with a heap limit of a gigabyte and a byte
    // budget made as large, only the resident-memory ceiling stops it.
    const readers = pool({ maxRssMb: 224, maxHeapMb: 1024, timeoutMs: 60_000, loadPdfJsAtStart: false });
    const limits = { ...DEFAULT_READ_LIMITS, maxDecodedBytes: 1024 * 1024 * 1024 };
    await assert.rejects(readers.read(await contentBombs.onePage(600), limits), (error: unknown) => {
      assert.ok(error instanceof ReadingBudgetError, String(error));
      assert.match(error.message, /needs more than the 224 MB of memory one file may use/);
      return true;
    });
    const peakMb = readers.lastReadPeakRssBytes / 1024 / 1024;
    assert.ok(peakMb > 224 && peakMb < 400, `the reader reached ${peakMb.toFixed(0)} MB`);
    assert.equal((await readers.read(await fixture('peppol-invoice.xml'), DEFAULT_READ_LIMITS)).format, 'ubl');
  });

  it('reads the largest invoice the default upload limit lets in within the default memory ceiling', async () => {
    const readers = pool({ timeoutMs: 60_000 });
    const xml = (await fixture('peppol-invoice.xml')).toString('utf8');
    const line = /<cac:InvoiceLine>[\s\S]*?<\/cac:InvoiceLine>/.exec(xml)![0];
    const largest = xml.replace(line, line.repeat(Math.floor((9.8 * 1024 * 1024) / line.length)));
    const read = await readers.read(Buffer.from(largest), DEFAULT_READ_LIMITS);
    assert.equal(read.format, 'ubl');
    assert.ok(read.content!.facts.lineCount > 7000, `${read.content!.facts.lineCount} lines`);
  });

  it('never runs more readers than its size; more reads wait for one', async () => {
    const readers = pool({ size: 2 });
    const files = await Promise.all(['xrechnung-ubl.xml', 'xrechnung-cii.xml', 'facturx-basic.xml'].map(fixture));
    const reads = await Promise.all([...files, ...files].map((bytes) => readers.read(bytes, DEFAULT_READ_LIMITS)));
    assert.deepEqual(
      reads.map((read) => read.format),
      ['ubl', 'cii', 'cii', 'ubl', 'cii', 'cii'],
    );
    assert.equal(readers.processes, 2);
  });

  it('starts a fresh reader after the number of files one reader may read', async () => {
    const readers = pool({ filesPerProcess: 2 });
    const bytes = await fixture('xrechnung-ubl.xml');
    for (let index = 0; index < 5; index += 1) await readers.read(bytes, DEFAULT_READ_LIMITS);
    assert.equal(readers.started, 3, 'files 1-2, 3-4 and 5 each had a reader of their own');
    assert.equal(readers.processes, 1);
    await readers.close();
    assert.equal(readers.processes, 0);
    await assert.rejects(readers.read(bytes, DEFAULT_READ_LIMITS), /closed/);
  });
});

describe("a reader's Node arguments", () => {
  it("are the reader's own: a module its parent's process was started with (a test runner's --import) never runs in it, and the pool closes there", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'reader-arguments-'));
    try {
      await writeFile(path.join(dir, 'invoice.xml'), await fixture('xrechnung-ubl.xml'));
      // Started from the pool's parent, the module does nothing; in a reader (a process with an IPC channel) it
      // ends the process before the reader can say it is ready.
      const parentOnly = `data:text/javascript,if (process.send) { process.stderr.write('the parent module ran'); process.exit(7); }`;
      const script = path.join(dir, 'read-one.mjs');
      await writeFile(
        script,
        `import { readFile } from 'node:fs/promises';
const { createInvoiceReaderPool, DEFAULT_READER_POOL_OPTIONS } = await import(${JSON.stringify(new URL('./reader-pool.ts', import.meta.url).href)});
const { DEFAULT_READ_LIMITS } = await import(${JSON.stringify(new URL('./read-invoice.ts', import.meta.url).href)});
const pool = createInvoiceReaderPool({ ...DEFAULT_READER_POOL_OPTIONS, size: 1, loadPdfJsAtStart: false });
let outcome;
try {
  outcome = (await pool.read(await readFile(${JSON.stringify(path.join(dir, 'invoice.xml'))}), DEFAULT_READ_LIMITS)).format;
} catch (error) {
  outcome = String(error.message);
}
// Awaited with nothing else left to do: an idle reader does not hold the process, but closing it must still settle.
await pool.close();
process.stdout.write(outcome + ', closed');
`,
      );
      const { stdout } = await run(process.execPath, [`--import=${parentOnly}`, '--enable-source-maps', script], {
        timeout: 120_000,
      });
      assert.equal(stdout, 'ubl, closed');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keep the heap limit the pool was given and the capped young generation', () => {
    assert.deepEqual(readerExecArgv(224), ['--max-old-space-size=224', '--max-semi-space-size=4']);
  });
});
