import { InvoiceRefusedError, readInvoice } from './read-invoice.ts';
import { ReadingBudgetError } from './reading-budget.ts';
import { LOAD_PDF_JS_AT_START, type ReaderReply, type ReaderRequest } from './reader-pool.ts';
import { loadPdfJs } from './visible-text.ts';

/**
 * The reader pool's child process (reader-pool.ts): reads one upload at a time, under the heap limit its pool
 * started it with, and answers with what it read or why it refused. It says when it is ready, so a file's
 * time budget is spent on the file, not on loading this process's modules.
 */
// pdf-lib writes two lines to the console for every object it cannot parse: a crafted PDF would flood the
// instance's log with them. What the reading found goes back in the reply (a warning or a refusal) instead.
console.warn = () => {};

const send = process.send?.bind(process);
if (!send) throw new Error('reader-process.ts runs as a child process of the invoice reader pool');

process.on('message', async ({ bytes, limits }: ReaderRequest) => {
  let reply: ReaderReply;
  try {
    reply = { ok: true, read: await readInvoice(bytes, limits) };
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof ReadingBudgetError) reply = { ok: false, kind: 'over-budget', message };
    else if (error instanceof InvoiceRefusedError) reply = { ok: false, kind: 'refused', message };
    else reply = { ok: false, kind: 'failed', message: String((error as Error).stack ?? error) };
  }
  send(reply);
});
// The pool is gone (its process ended or it let go of this reader): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
if (process.argv.includes(LOAD_PDF_JS_AT_START)) await loadPdfJs();
send('ready' satisfies ReaderReply);
