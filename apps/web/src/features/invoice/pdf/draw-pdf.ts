import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Sharper than the screen so a pinch-zoom stays readable, capped so a long invoice does not exhaust a phone. */
const MAX_PIXEL_RATIO = 3;

/**
 * Draws every page of `pdf` as a canvas `cssWidth` pixels wide, in order, each appended to `container` as soon as
 * it is drawn, so the first page shows while the rest are drawn; `onPage` after each. Rejects if the file cannot
 * be opened; stops (and frees the document) when `signal` aborts.
 */
export async function drawPdf(
  pdf: Blob,
  container: HTMLElement,
  options: {
    cssWidth: number;
    describe: (page: number, count: number) => string;
    onPage: (page: number, count: number) => void;
    signal: AbortSignal;
  },
): Promise<void> {
  const task = getDocument({ data: new Uint8Array(await pdf.arrayBuffer()) });
  options.signal.addEventListener('abort', () => void task.destroy(), { once: true });
  const document = await task.promise;
  const ratio = Math.min(MAX_PIXEL_RATIO, Math.max(2, window.devicePixelRatio || 1));
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const viewport = page.getViewport({ scale: (options.cssWidth / page.getViewport({ scale: 1 }).width) * ratio });
    const canvas = container.ownerDocument.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    canvas.className = 'invoice-page';
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', options.describe(number, document.numPages));
    await page.render({ canvas, viewport }).promise;
    if (options.signal.aborted) return;
    container.append(canvas);
    options.onPage(number, document.numPages);
  }
}
