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
import { ReadingBudgetError } from './reading-budget.ts';

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

interface StructureBudget {
  limitBytes: number;
  remainingBytes: number;
  /** The first refusal: pdf-lib catches what a parser throws and carries on, so it is kept to rethrow. */
  refusal?: ReadingBudgetError;
}

/** One document's budget, found through the async context: loads in one thread may overlap at their awaits. */
const budgets = new AsyncLocalStorage<StructureBudget>();

/** For a load outside readWithinStructureBudget (none in the portal): each stream alone gets this much. */
const UNSCOPED_STREAM_BYTES = 16 * 1024 * 1024;
/** Decoded a piece at a time, so the budget is checked before the next piece is made. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Runs a pdf-lib load with its object and cross-reference streams limited to `maxBytes` decoded in all;
 * throws ReadingBudgetError when the document is refused, whatever pdf-lib made of the refusal.
 */
export async function readWithinStructureBudget<T>(maxBytes: number, load: () => Promise<T>): Promise<T> {
  installStreamGuards();
  const budget: StructureBudget = { limitBytes: maxBytes, remainingBytes: maxBytes };
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
  const budget = budgets.getStore() ?? { limitBytes: UNSCOPED_STREAM_BYTES, remainingBytes: UNSCOPED_STREAM_BYTES };
  if (budget.refusal) throw budget.refusal;
  const refuse = (message: string) => {
    budget.refusal = new ReadingBudgetError(message);
    return budget.refusal;
  };
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  if (filter instanceof PDFArray && filter.size() > 1) {
    const names = filter.asArray().map((name) => (name instanceof PDFName ? name.asString() : '?'));
    throw refuse(
      `The PDF is refused: ${what} is compressed ${filter.size()} times over ([${names.join(' ').slice(0, 200)}]). PDF writers compress these streams once; a chain of filters is how a decompression bomb is built.`,
    );
  }
  const decoder = decodePDFRawStream(stream);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = decoder.getBytes(CHUNK_BYTES); chunk.length > 0; chunk = decoder.getBytes(CHUNK_BYTES)) {
    size += chunk.length;
    if (size > budget.remainingBytes) {
      throw refuse(
        `The PDF is refused: its object and cross-reference streams decompress to more than the ${megabytes(budget.limitBytes)} one document may use.`,
      );
    }
    chunks.push(chunk as Uint8Array);
  }
  budget.remainingBytes -= size;
  const dict = stream.dict.clone();
  dict.delete(PDFName.of('Filter'));
  dict.delete(PDFName.of('DecodeParms'));
  return PDFRawStream.of(dict, Buffer.concat(chunks, size));
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
    const budget = budgets.getStore();
    const refusal = new ReadingBudgetError(
      `The PDF is refused: its cross-reference stream declares ${declared} entries but holds ${stream.contents.length} bytes.`,
    );
    if (budget) budget.refusal ??= refusal;
    throw refusal;
  }
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 102.4) / 10} MB`;
