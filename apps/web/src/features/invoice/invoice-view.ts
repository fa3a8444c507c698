/** How the invoice is shown: the browser's viewer in a frame, or pages drawn by PDF.js. */
export type InvoiceView = 'frame' | 'pages';

/**
 * The frame on a desktop-class browser with a PDF viewer; drawn pages on a narrow or touch screen, where the
 * frame's viewer shrinks the page to illegible text (or, on iOS, shows only its first page), and wherever the
 * browser reports no viewer.
 */
export function chooseInvoiceView(): InvoiceView {
  if (navigator.pdfViewerEnabled === false) return 'pages';
  return window.matchMedia?.('(max-width: 767.98px), (pointer: coarse)').matches ? 'pages' : 'frame';
}
