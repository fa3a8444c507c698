import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { hasValidIbanChecksum } from './iban.ts';
import { accountsIn } from './visible-accounts.ts';

/**
 * What a PDF's pages say about where to pay: the accounts in the text a PDF reader shows (visible-accounts.ts;
 * `ibans` is those of them that are IBANs), or why that text could not be had. A person pays from what they
 * see; a hybrid's facts come from its XML, and a plain PDF has nothing else. A hybrid whose page shows
 * another account than its XML, and a PDF replaced by one that shows other accounts, are what this is for.
 */
export type VisibleAccounts = { ibans: string[]; accounts: string[] } | { unreadable: string };

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

/** A piece of text where the page puts it: PDF.js's item, its origin and height. */
interface Placed {
  text: string;
  x: number;
  y: number;
  height: number;
  endsLine: boolean;
}

/**
 * The page's text twice: in the order the PDF draws it, and in the order a person reads it (lines from the
 * top, each from the left). A PDF may draw the halves of an account in any order, or put them in two table
 * cells drawn a column at a time; the reading order puts them back together.
 */
function textsOf(items: Placed[]): [string, string] {
  const drawn = items.map((item) => (item.endsLine ? `${item.text}\n` : `${item.text} `)).join('');
  const lines: Placed[][] = [];
  const byTop = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  for (const item of byTop) {
    const line = lines.at(-1);
    const first = line?.[0];
    if (line && first && Math.abs(first.y - item.y) <= Math.max(2, Math.min(first.height, item.height) / 2)) {
      line.push(item);
    } else lines.push([item]);
  }
  const read = lines
    .map((line) =>
      line
        .sort((a, b) => a.x - b.x)
        .map((item) => item.text)
        .join(' '),
    )
    .join('\n');
  return [drawn, read];
}

/**
 * Extracts the text with PDF.js (what the web app draws pages with) and finds the accounts in it. Never throws:
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
    const texts: string[] = [];
    let length = 0;
    for (let number = 1; number <= document.numPages; number += 1) {
      if (Date.now() >= deadline) throw overBudget();
      const content = await (await document.getPage(number)).getTextContent();
      const placed: Placed[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        length += item.str.length + 1;
        if (length > limits.maxChars) throw new BudgetExceeded(`its text is longer than ${limits.maxChars} characters`);
        const [, , , , x = 0, y = 0] = item.transform as number[];
        placed.push({ text: item.str, x, y, height: Math.abs(item.height), endsLine: item.hasEOL });
      }
      texts.push(...textsOf(placed));
    }
    return accountsIn(texts.join('\n\n'));
  })();
  try {
    const accounts = await Promise.race([extraction, timeout]);
    return { ibans: accounts.filter(hasValidIbanChecksum), accounts };
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
