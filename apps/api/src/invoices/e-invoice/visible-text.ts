import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ibansIn } from './iban.ts';

/**
 * What a hybrid's visible layer says about where to pay: the IBANs in the text a PDF reader shows, or why
 * that text could not be had. A person pays from what they see; the facts come from the XML. A hybrid whose
 * page shows another account than its XML is the trick this looks for.
 */
export type VisibleAccounts = { ibans: string[] } | { unreadable: string };

export interface VisibleTextLimits {
  /** A hybrid's visible layer is a few pages; a longer PDF is not read, and says so. */
  maxPages: number;
  /** Text characters over all pages, so a page of generated text cannot hold the reader. */
  maxChars: number;
  /** Wall-clock budget for the whole extraction. */
  timeoutMs: number;
}

export const DEFAULT_VISIBLE_TEXT_LIMITS: VisibleTextLimits = { maxPages: 50, maxChars: 2_000_000, timeoutMs: 10_000 };

class BudgetExceeded extends Error {}

/**
 * PDF.js, loaded once: about 0.2 s on an idle core, several seconds on a busy one. The reader processes load
 * it before they take a file (reader-process.ts), so loading is not part of an invoice's time budget;
 * elsewhere it loads on first use.
 */
let pdfJs: Promise<typeof PdfJs> | undefined;
export const loadPdfJs = () => (pdfJs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

/**
 * Extracts the text with PDF.js (what the web app draws pages with) and finds the IBANs in it. Never throws:
 * any failure — a PDF PDF.js cannot open, an encrypted one, too many pages, too much text, too slow — is the
 * `unreadable` answer with the reason, and the invoice is stored all the same.
 */
export async function readVisibleAccounts(
  pdf: Uint8Array,
  limits: VisibleTextLimits = DEFAULT_VISIBLE_TEXT_LIMITS,
): Promise<VisibleAccounts> {
  let library;
  try {
    library = await loadPdfJs();
  } catch (error) {
    pdfJs = undefined;
    return { unreadable: `PDF.js could not be loaded (${describe(error)})` };
  }
  const { getDocument, VerbosityLevel } = library;
  let destroy: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const overBudget = () => new BudgetExceeded(`it took longer than ${limits.timeoutMs} ms`);
  // The timer ends a wait on PDF.js; the deadline, checked page by page, ends a loop that keeps getting answers.
  const deadline = Date.now() + limits.timeoutMs;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(overBudget()), limits.timeoutMs);
  });
  const extraction = (async () => {
    const task = getDocument({
      // PDF.js takes ownership of the buffer it is given (and refuses a Buffer): a plain copy, so the bytes to
      // store stay whole.
      data: new Uint8Array(pdf),
      verbosity: VerbosityLevel.ERRORS,
      // Text only: no font program is compiled or evaluated, nothing is fetched, nothing is drawn.
      disableFontFace: true,
      useSystemFonts: false,
      useWorkerFetch: false,
      isOffscreenCanvasSupported: false,
      isImageDecoderSupported: false,
      enableXfa: false,
      stopAtErrors: false,
    });
    destroy = () => task.destroy();
    const document = await task.promise;
    if (document.numPages > limits.maxPages) {
      throw new BudgetExceeded(`it has ${document.numPages} pages, more than the ${limits.maxPages} read`);
    }
    let text = '';
    for (let number = 1; number <= document.numPages; number += 1) {
      if (Date.now() >= deadline) throw overBudget();
      const content = await (await document.getPage(number)).getTextContent();
      for (const item of content.items) {
        if ('str' in item) text += item.hasEOL ? `${item.str}\n` : `${item.str} `;
      }
      if (text.length > limits.maxChars)
        throw new BudgetExceeded(`its text is longer than ${limits.maxChars} characters`);
      text += '\n';
    }
    return ibansIn(text);
  })();
  try {
    return { ibans: await Promise.race([extraction, timeout]) };
  } catch (error) {
    // PDF.js rejects with its own exception classes (InvalidPDFException, PasswordException …) or plain errors.
    const reason = error instanceof BudgetExceeded ? error.message : `PDF.js could not read it (${describe(error)})`;
    return { unreadable: reason };
  } finally {
    clearTimeout(timer);
    extraction.catch(() => undefined);
    await destroy?.().catch(() => undefined);
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);
