import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib';
import { readWithinStructureBudget } from './pdf-structure-budget.ts';
import { type ByteBudget, ReadingBudgetError } from './reading-budget.ts';

export interface PdfAttachment {
  name: string;
  /** How the file relates to the document (PDF/A-3 /AFRelationship: Data, Alternative, Source …), if said. */
  relationship: string | null;
  /** Decodes the file (only when asked: a PDF may carry large attachments that are not the invoice). */
  read(): Uint8Array;
}

/** The PDF could not be read, or an attached file could not be decoded. */
export class PdfAttachmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfAttachmentError';
  }
}

// A name tree deeper than this, or with more entries, is not an invoice's.
const MAX_TREE_DEPTH = 16;
const MAX_ATTACHMENTS = 100;

/**
 * Loads an uploaded PDF with pdf-lib, its object and cross-reference streams decoded within the upload's
 * byte budget (pdf-structure-budget.ts): past it, or built as a bomb, the PDF is refused with
 * ReadingBudgetError; a PDF that cannot be read at all is PdfAttachmentError. An encrypted PDF is loaded
 * decrypted when it opens without a password (only an owner password set, as many invoice programs do), and
 * as it is otherwise (its trailer then still names /Encrypt).
 */
export async function loadPdfWithinBudget(pdf: Uint8Array, budget: ByteBudget): Promise<PDFDocument> {
  try {
    const options = { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false };
    const document = await readWithinStructureBudget(budget, () => PDFDocument.load(pdf, options));
    if (!document.isEncrypted) return document;
    try {
      const decrypted = await readWithinStructureBudget(budget, () =>
        PDFDocument.load(pdf, { ...options, password: '' }),
      );
      // Its objects are plain now: whoever reads it next (the text copy) must not take it for encrypted.
      delete decrypted.context.trailerInfo.Encrypt;
      return decrypted;
    } catch (error) {
      if (error instanceof ReadingBudgetError) throw error;
      return document;
    }
  } catch (error) {
    if (error instanceof ReadingBudgetError) throw error;
    // pdf-lib throws its own errors (and plain TypeErrors on broken structures): all mean "not readable".
    throw new PdfAttachmentError(`the PDF's structure could not be read (${(error as Error).message})`);
  }
}

/**
 * The files attached to a PDF through its embedded-files name tree (/Names /EmbeddedFiles) and the
 * PDF/A-3 associated-files array (/AF) of the catalogue: where ZUGFeRD and Factur-X put the invoice XML.
 * A file is decoded (Flate, or stored plain) when read, with an output limit of `maxFileBytes` and of what
 * is left of the upload's byte budget, so a compressed bomb is refused rather than inflated.
 */
export function readPdfAttachments(
  document: PDFDocument,
  limits: { maxFileBytes: number; budget: ByteBudget },
): PdfAttachment[] {
  try {
    return attachmentsOf(document, limits.maxFileBytes, limits.budget);
  } catch (error) {
    throw new PdfAttachmentError(`the PDF's structure could not be read (${(error as Error).message})`);
  }
}

function attachmentsOf(document: PDFDocument, maxFileBytes: number, budget: ByteBudget): PdfAttachment[] {
  const { context } = document;
  const catalog = context.lookup(context.trailerInfo.Root);
  if (!(catalog instanceof PDFDict)) throw new Error('it has no document catalogue');
  const lookup = (object: PDFObject | undefined) => (object instanceof PDFRef ? context.lookup(object) : object);
  const specs: PDFDict[] = [];
  const seen = new Set<PDFObject>();

  const walk = (node: PDFObject | undefined, depth: number) => {
    const dict = lookup(node);
    if (!(dict instanceof PDFDict) || seen.has(dict) || depth > MAX_TREE_DEPTH) return;
    seen.add(dict);
    const names = lookup(dict.get(PDFName.of('Names')));
    if (names instanceof PDFArray) {
      // [key1 value1 key2 value2 …]: the values are file specifications.
      for (let index = 1; index < names.size(); index += 2) addSpec(names.get(index));
    }
    const kids = lookup(dict.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) for (const kid of kids.asArray()) walk(kid, depth + 1);
  };
  const addSpec = (value: PDFObject | undefined) => {
    const spec = lookup(value);
    if (spec instanceof PDFDict && !specs.includes(spec) && specs.length < MAX_ATTACHMENTS) specs.push(spec);
  };

  const nameDictionary = lookup(catalog.get(PDFName.of('Names')));
  if (nameDictionary instanceof PDFDict) walk(nameDictionary.get(PDFName.of('EmbeddedFiles')), 0);
  const associated = lookup(catalog.get(PDFName.of('AF')));
  if (associated instanceof PDFArray) for (const spec of associated.asArray()) addSpec(spec);

  const attachments: PdfAttachment[] = [];
  for (const spec of specs) {
    const name = decodeText(lookup(spec.get(PDFName.of('UF')))) ?? decodeText(lookup(spec.get(PDFName.of('F'))));
    const embedded = lookup(spec.get(PDFName.of('EF')));
    if (!name || !(embedded instanceof PDFDict)) continue;
    const stream = lookup(embedded.get(PDFName.of('F'))) ?? lookup(embedded.get(PDFName.of('UF')));
    if (!(stream instanceof PDFRawStream)) continue;
    const relationship = lookup(spec.get(PDFName.of('AFRelationship')));
    attachments.push({
      name,
      relationship: relationship instanceof PDFName ? relationship.decodeText() : null,
      read: () => decodeStream(stream, name, maxFileBytes, budget),
    });
  }
  return attachments;
}

function decodeText(value: PDFObject | undefined): string | null {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  return null;
}

function decodeStream(stream: PDFRawStream, name: string, maxBytes: number, budget: ByteBudget): Uint8Array {
  const filterObject = stream.dict.lookup(PDFName.of('Filter'));
  const filters =
    filterObject instanceof PDFName
      ? [filterObject.decodeText()]
      : filterObject instanceof PDFArray
        ? filterObject.asArray().map((filter) => (filter instanceof PDFName ? filter.decodeText() : '?'))
        : [];
  if (filters.length === 0) {
    if (stream.contents.length > maxBytes) throw tooLarge(name, maxBytes);
    return stream.contents;
  }
  if (filters.length === 1 && (filters[0] === 'FlateDecode' || filters[0] === 'Fl')) {
    // One byte past what is left, so that spending it below refuses the whole upload.
    const budgetLeft = budget.remainingBytes + 1;
    const what = `the attached file "${name.slice(0, 100)}"`;
    let inflated: Buffer;
    try {
      // maxOutputLength stops inflating at the limit instead of after it: a bomb never fills memory.
      inflated = inflateSync(stream.contents, { maxOutputLength: Math.min(maxBytes, budgetLeft) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') {
        throw new PdfAttachmentError(`the attached file "${name}" could not be decompressed`);
      }
      if (maxBytes < budgetLeft) throw tooLarge(name, maxBytes);
      throw budget.refuse(budget.overMessage(what));
    }
    budget.spend(inflated.length, what);
    return inflated;
  }
  throw new PdfAttachmentError(
    `the attached file "${name}" uses a compression this portal does not read (${filters.join(', ')})`,
  );
}

const tooLarge = (name: string, maxBytes: number) =>
  new PdfAttachmentError(`the attached file "${name}" is larger than ${maxBytes} bytes once decompressed`);
