import { parentPort } from 'node:worker_threads';
import { InvoiceRefusedError, readInvoice } from './read-invoice.ts';
import { ReadingBudgetError } from './reading-budget.ts';
import type { ReaderReply, ReaderRequest } from './reader-pool.ts';

/**
 * The reader pool's worker (reader-pool.ts): reads one upload at a time, under the memory limit its pool
 * started it with, and answers with what it read or why it refused. It says when it is ready, so a file's
 * time budget is spent on the file, not on loading this thread's modules.
 */
// pdf-lib writes two lines to the console for every object it cannot parse: a crafted PDF would flood the
// instance's log with them. What the reading found goes back in the reply (a warning or a refusal) instead.
console.warn = () => {};

const port = parentPort;
if (!port) throw new Error('read-worker.ts runs as a worker thread of the invoice reader pool');

port.on('message', async ({ bytes, limits }: ReaderRequest) => {
  let reply: ReaderReply;
  try {
    reply = { ok: true, read: await readInvoice(bytes, limits) };
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof ReadingBudgetError) reply = { ok: false, kind: 'over-budget', message };
    else if (error instanceof InvoiceRefusedError) reply = { ok: false, kind: 'refused', message };
    else reply = { ok: false, kind: 'failed', message: String((error as Error).stack ?? error) };
  }
  port.postMessage(reply);
});
port.postMessage('ready' satisfies ReaderReply);
