import { AsyncLocalStorage } from 'node:async_hooks';
import {
  decodePDFRawStream,
  PDFArray,
  PDFName,
  PDFNumber,
  PDFObjectStreamParser,
  PDFRawStream,
  PDFXRefStreamParser,
} from '@cantoo/pdf-lib';
import { ByteBudget, ReadingBudgetError } from './reading-budget.ts';

/**
 * pdf-lib decodes every object stream and cross-reference stream while it loads a document, whole, in one
 * synchronous step and with no limit: a 751-byte PDF whose object stream is Flate-compressed twice inflates
 * to 250 MB (8 s on the event loop). It offers no hook, so the two parsers' `forStream` factories, which
 * its PDFParser looks up at each call, are wrapped here: a stream is decoded by pdf-lib's own decoders
 * (so what it reads is byte for byte what it read before), a chunk at a time against a per-document byte
 * budget, and handed on already decoded. Refused before anything is decoded: chained filters, which no
 * PDF writer uses on these streams and which are how the bomb multiplies its ratio. Refused after: a
 * cross-reference stream that declares more entries than its bytes hold (pdf-lib would loop over every
 * declared entry, even with no bytes behind it).
 */

/** One document's budget, found through the async context: loads in one thread may overlap at their awaits. */
const budgets = new AsyncLocalStorage<ByteBudget>();

/** For a load outside readWithinStructureBudget (none in the portal): each stream alone gets this much. */
const UNSCOPED_STREAM_BYTES = 16 * 1024 * 1024;
/** Decoded a piece at a time, so the budget is checked before the next piece is made. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * Runs a pdf-lib load with its object and cross-reference streams counted against `budget` (the upload's
 * one byte budget); throws ReadingBudgetError when the document is refused, whatever pdf-lib made of the
 * refusal.
 */
export async function readWithinStructureBudget<T>(budget: ByteBudget, load: () => Promise<T>): Promise<T> {
  installStreamGuards();
  let result: T;
  try {
    result = await budgets.run(budget, load);
  } catch (error) {
    throw budget.refusal ?? error;
  }
  if (budget.refusal) throw budget.refusal;
  return result;
}

let installed = false;

function installStreamGuards() {
  if (installed) return;
  installed = true;
  const objectStreamParser = PDFObjectStreamParser.forStream;
  PDFObjectStreamParser.forStream = (stream, shouldWaitForTick) =>
    objectStreamParser(decodedWithinBudget(stream, 'an object stream'), shouldWaitForTick);
  const crossReferenceParser = PDFXRefStreamParser.forStream;
  PDFXRefStreamParser.forStream = (stream) => {
    const decoded = decodedWithinBudget(stream, 'a cross-reference stream');
    requireEntriesWithinBytes(decoded);
    return crossReferenceParser(decoded);
  };
}

function decodedWithinBudget(stream: PDFRawStream, what: string): PDFRawStream {
  const budget = budgets.getStore() ?? new ByteBudget(UNSCOPED_STREAM_BYTES);
  if (budget.refusal) throw budget.refusal;
  const refuse = (message: string) => budget.refuse(message);
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  if (filter instanceof PDFArray && filter.size() > 1) {
    const names = filter.asArray().map((name) => (name instanceof PDFName ? name.asString() : '?'));
    throw refuse(
      `The PDF is refused: ${what} is compressed ${filter.size()} times over ([${names.join(' ').slice(0, 200)}]). PDF writers compress these streams once; a chain of filters is how a decompression bomb is built.`,
    );
  }
  const decoded = decodeWithinBudget(stream, budget, 'its object and cross-reference streams');
  const dict = stream.dict.clone();
  dict.delete(PDFName.of('Filter'));
  dict.delete(PDFName.of('DecodeParms'));
  return PDFRawStream.of(dict, decoded);
}

/** /W gives each entry's field widths, /Index (or /Size) the entries: together no more than the bytes. */
function requireEntriesWithinBytes(stream: PDFRawStream) {
  const numbers = (key: string) => {
    const value = stream.dict.lookup(PDFName.of(key));
    if (value instanceof PDFNumber) return [value.asNumber()];
    if (!(value instanceof PDFArray)) return [];
    return value.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : 0));
  };
  const entryBytes = numbers('W').reduce((sum, width) => sum + Math.max(0, width), 0);
  const index = numbers('Index');
  const declared =
    index.length > 0
      ? index.filter((_, position) => position % 2 === 1).reduce((sum, n) => sum + n, 0)
      : (numbers('Size')[0] ?? 0);
  if (declared > stream.contents.length / Math.max(1, entryBytes) + 1) {
    const message = `The PDF is refused: its cross-reference stream declares ${declared} entries but holds ${stream.contents.length} bytes.`;
    throw budgets.getStore()?.refuse(message) ?? new ReadingBudgetError(message);
  }
}

/**
 * A stream's bytes decoded by pdf-lib's own decoders, a chunk at a time, each chunk counted against `budget`
 * before the next is made: past it, the decoding stops there with the budget's refusal.
 */
export function decodeWithinBudget(stream: PDFRawStream, budget: ByteBudget, what: string): Buffer {
  const decoder = decodePDFRawStream(stream);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = decoder.getBytes(CHUNK_BYTES); chunk.length > 0; chunk = decoder.getBytes(CHUNK_BYTES)) {
    budget.spend(chunk.length, what);
    size += chunk.length;
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks, size);
}
