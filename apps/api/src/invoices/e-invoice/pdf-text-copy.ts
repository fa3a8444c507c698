import { deflateSync } from 'node:zlib';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFRef,
} from '@cantoo/pdf-lib';
import { CHUNK_BYTES } from './pdf-structure-budget.ts';
import type { ByteBudget } from './reading-budget.ts';

/**
 * PDF.js reads a page's text with decoders that have no output limit: a content stream of a few megabytes
 * that inflates to gigabytes took a reader to 2.46 GB. It offers no hook either, so it is never given a
 * compressed stream: the copy it reads is the document pdf-lib loaded within the upload's byte budget, with
 * every stream it could decode for text (page contents, forms, fonts, character maps) already decoded here, a
 * chunk at a time against that same budget, and every stream text never needs (images, attached files,
 * metadata) emptied. Whatever PDF.js then inflates is a copy of what was counted.
 *
 * Decoding each stream once is not all a page costs: a page's contents may name one stream many times, and
 * a form may draw another form that draws another (`Do`), each draw read again by PDF.js. The content drawn
 * is counted with those repetitions, before PDF.js sees it, and a form that draws itself is refused.
 */

export type TextCopy = { bytes: Uint8Array } | { unreadable: string };

/** Forms drawn inside forms: deeper than this is not an invoice's page. */
const MAX_FORM_DEPTH = 16;

/** Streams text is never read from: their bytes are not decoded, and the copy holds none. */
const SKIPPED_TYPES = new Set(['EmbeddedFile', 'Metadata', 'ObjStm', 'XRef']);

const DECODING = 'the content, fonts and forms of its pages';
const DRAWING = 'the content its pages and forms draw, counted each time it is drawn';

/**
 * Rewrites `document` (loaded for this read only) into the bytes PDF.js reads the visible text from.
 * Throws ReadingBudgetError (through `budget`) when decoding or drawing goes past the budget, or a form
 * draws itself; answers `unreadable` for a document whose pages it cannot walk or that has more pages than
 * are read.
 */
export async function textCopyOf(document: PDFDocument, budget: ByteBudget, maxPages: number): Promise<TextCopy> {
  const { context } = document;
  // Still encrypted after loading (pdf-attachments.ts decrypts what opens without a password): its streams
  // are ciphertext, and reading them as text would find nothing and say so as if it had looked.
  if (context.trailerInfo.Encrypt) return { unreadable: 'it is encrypted with a password' };
  const pages = pagesOf(document, maxPages);
  if ('unreadable' in pages) return pages;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream) context.assign(ref, decodedForText(object, budget));
  }
  countDrawing(document, pages.leaves, budget);
  const bytes = await document.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  return { bytes };
}

/** The page dictionaries, walked by hand: pdf-lib's own walk follows a loop in the page tree for ever. */
function pagesOf(document: PDFDocument, maxPages: number): { leaves: PDFDict[] } | { unreadable: string } {
  const { context } = document;
  const leaves: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const catalog = context.lookup(context.trailerInfo.Root);
  const root = catalog instanceof PDFDict ? context.lookup(catalog.get(PDFName.of('Pages'))) : undefined;
  const pending: PDFObject[] = root ? [root] : [];
  while (pending.length > 0) {
    const node = lookup(document, pending.pop());
    if (!(node instanceof PDFDict) || seen.has(node)) continue;
    seen.add(node);
    const kids = lookup(document, node.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) {
      // Reversed onto the stack, so pages come off it in document order.
      for (let index = kids.size() - 1; index >= 0; index -= 1) pending.push(kids.get(index));
    } else {
      leaves.push(node);
      if (leaves.length > maxPages) {
        const declared = root instanceof PDFDict ? root.lookup(PDFName.of('Count')) : undefined;
        const count = declared instanceof PDFNumber && declared.asNumber() > maxPages ? declared.asNumber() : null;
        return { unreadable: `it has ${count ?? 'more'} pages, more than the ${maxPages} read` };
      }
    }
  }
  if (leaves.length === 0) return { unreadable: 'it has no pages' };
  return { leaves };
}

const lookup = (document: PDFDocument, object: PDFObject | undefined) =>
  object instanceof PDFRef ? document.context.lookup(object) : object;

/** A stream as PDF.js will read it: decoded within the budget, or empty when text never needs its bytes. */
function decodedForText(stream: PDFRawStream, budget: ByteBudget): PDFRawStream {
  const dict = stream.dict.clone();
  const type = stream.dict.lookup(PDFName.of('Type'));
  const subtype = stream.dict.lookup(PDFName.of('Subtype'));
  const emptied = () => {
    dict.delete(PDFName.of('Filter'));
    dict.delete(PDFName.of('DecodeParms'));
    dict.set(PDFName.of('Length'), PDFNumber.of(0));
    return PDFRawStream.of(dict, new Uint8Array(0));
  };
  // Text is never read from pixels: an image's stream is not decoded (a scanned page's image decodes to tens
  // of megabytes), and PDF.js does not decode images for text either.
  if (subtype instanceof PDFName && subtype.asString() === '/Image') return emptied();
  if (type instanceof PDFName && SKIPPED_TYPES.has(type.asString().slice(1))) return emptied();
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  if (!filter) return stream;
  const decoded = decodePartly(stream, budget);
  if (!decoded) return emptied();
  dict.delete(PDFName.of('Filter'));
  const predictor = lastDecodeParms(stream.dict);
  dict.delete(PDFName.of('DecodeParms'));
  if (predictor) {
    // pdf-lib's decoders leave a predictor (PNG or TIFF row differences) unapplied; PDF.js applies it after
    // Flate. Stored without compression, the bytes inflate one for one.
    dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
    dict.set(PDFName.of('DecodeParms'), predictor);
    const stored = deflateSync(decoded, { level: 0 });
    dict.set(PDFName.of('Length'), PDFNumber.of(stored.length));
    return PDFRawStream.of(dict, stored);
  }
  dict.set(PDFName.of('Length'), PDFNumber.of(decoded.length));
  return PDFRawStream.of(dict, decoded);
}

/**
 * The stream's bytes, decoded a chunk at a time against the budget (which throws past it). A stream whose
 * filter pdf-lib does not decode (DCT, JBIG2 … on something that is not an image) is null; one that breaks
 * halfway keeps what was decoded, as PDF.js would.
 */
function decodePartly(stream: PDFRawStream, budget: ByteBudget): Buffer | null {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let decoder;
  try {
    decoder = decodePDFRawStream(stream);
  } catch {
    return null;
  }
  for (;;) {
    let chunk: Uint8Array;
    try {
      chunk = decoder.getBytes(CHUNK_BYTES) as Uint8Array;
    } catch {
      break;
    }
    if (chunk.length === 0) break;
    budget.spend(chunk.length, DECODING);
    size += chunk.length;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The decode parameters of the last filter, when they ask for a predictor. */
function lastDecodeParms(dict: PDFDict): PDFDict | null {
  const parms = dict.lookup(PDFName.of('DecodeParms'));
  const last = parms instanceof PDFArray ? parms.lookup(parms.size() - 1) : parms;
  if (!(last instanceof PDFDict)) return null;
  const predictor = last.lookup(PDFName.of('Predictor'));
  return predictor instanceof PDFNumber && predictor.asNumber() > 1 ? last : null;
}

// `/Name Do` in a content stream: drawing the XObject of that name. Strings or inline images may hold bytes
// that look like it; counting those too only counts more.
const DRAWS = /\/([^\s/[\]()<>{}%]+)\s*Do(?![^\s/[\]()<>{}%])/g;

/**
 * Counts what PDF.js will read to get the text of every page: each page's content streams (as often as its
 * /Contents names them), each form each time it is drawn (with what it draws), and each Type 3 font's glyph
 * procedures once. The first reading of each stream was spent when it was decoded; every further one is
 * spent here. A form that draws itself, or forms nested deeper than a page has, are refused.
 */
function countDrawing(document: PDFDocument, pages: PDFDict[], budget: ByteBudget) {
  const memo = new Map<PDFRawStream, Map<PDFDict | undefined, number>>();
  const reached = new Set<PDFRawStream>();
  const type3Fonts = new Set<PDFDict>();
  const drawing: PDFRawStream[] = [];
  // Past this, the total is over the budget whatever is subtracted after; stops sums growing without end.
  const ceiling = budget.limitBytes * 2 + 1;

  const contentOf = (stream: PDFRawStream, resources: PDFDict | undefined): number => {
    const known = memo.get(stream)?.get(resources);
    if (known !== undefined) return known;
    if (drawing.includes(stream)) {
      throw budget.refuse('The PDF is refused: one of its forms draws itself, which no reader can finish.');
    }
    if (drawing.length >= MAX_FORM_DEPTH) {
      throw budget.refuse(`The PDF is refused: its forms draw forms more than ${MAX_FORM_DEPTH} levels deep.`);
    }
    reached.add(stream);
    drawing.push(stream);
    let total = stream.contents.length + type3Of(resources);
    const text = Buffer.from(stream.contents.buffer, stream.contents.byteOffset, stream.contents.length).toString(
      'latin1',
    );
    const xobjects = resources ? lookup(document, resources.get(PDFName.of('XObject'))) : undefined;
    for (const [, name] of text.matchAll(DRAWS)) {
      if (!(xobjects instanceof PDFDict) || total > ceiling) break;
      const form = lookup(document, xobjects.get(PDFName.of(name ?? '')));
      if (!(form instanceof PDFRawStream)) continue;
      const subtype = form.dict.lookup(PDFName.of('Subtype'));
      if (!(subtype instanceof PDFName) || subtype.asString() !== '/Form') continue;
      const own = lookup(document, form.dict.get(PDFName.of('Resources')));
      total += contentOf(form, own instanceof PDFDict ? own : resources);
    }
    drawing.pop();
    const forStream = memo.get(stream) ?? new Map<PDFDict | undefined, number>();
    forStream.set(resources, Math.min(total, ceiling));
    memo.set(stream, forStream);
    return Math.min(total, ceiling);
  };

  /** PDF.js runs a Type 3 font's glyph procedures once, when it first loads the font. */
  const type3Of = (resources: PDFDict | undefined): number => {
    const fonts = resources ? lookup(document, resources.get(PDFName.of('Font'))) : undefined;
    if (!(fonts instanceof PDFDict)) return 0;
    let total = 0;
    for (const value of fonts.values()) {
      const font = lookup(document, value);
      if (!(font instanceof PDFDict) || type3Fonts.has(font)) continue;
      const subtype = font.lookup(PDFName.of('Subtype'));
      if (!(subtype instanceof PDFName) || subtype.asString() !== '/Type3') continue;
      type3Fonts.add(font);
      const procedures = lookup(document, font.get(PDFName.of('CharProcs')));
      const own = lookup(document, font.get(PDFName.of('Resources')));
      if (!(procedures instanceof PDFDict)) continue;
      for (const procedure of procedures.values()) {
        const stream = lookup(document, procedure);
        if (stream instanceof PDFRawStream) total += contentOf(stream, own instanceof PDFDict ? own : resources);
      }
    }
    return total;
  };

  let drawn = 0;
  for (const page of pages) {
    const resources = inherited(document, page, 'Resources');
    const contents = lookup(document, page.get(PDFName.of('Contents')));
    const streams = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    for (const item of streams) {
      const stream = lookup(document, item);
      if (stream instanceof PDFRawStream)
        drawn += contentOf(stream, resources instanceof PDFDict ? resources : undefined);
      if (drawn > ceiling) break;
    }
    if (drawn > ceiling) break;
  }
  const readOnce = [...reached].reduce((sum, stream) => sum + stream.contents.length, 0);
  if (drawn > readOnce) budget.spend(drawn - readOnce, DRAWING);
}

/** A page's attribute, from the page or the nearest page-tree node above it that has it. */
function inherited(document: PDFDocument, page: PDFDict, key: string): PDFObject | undefined {
  let node: PDFDict | undefined = page;
  for (let depth = 0; node && depth < 64; depth += 1) {
    const value = lookup(document, node.get(PDFName.of(key)));
    if (value !== undefined) return value;
    const parent = lookup(document, node.get(PDFName.of('Parent')));
    node = parent instanceof PDFDict ? parent : undefined;
  }
  return undefined;
}
