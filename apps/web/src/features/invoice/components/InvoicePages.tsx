import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { invoicePageLabel, PAGES_NOT_DRAWN_MESSAGE } from '../messages';

interface InvoicePagesProps {
  pdf: Blob;
  parcelCode: string;
}

/**
 * Phones and touch screens: every page drawn fit-to-width by PDF.js (loaded only here), in the page's own
 * scroll, so the browser's pinch-zoom works on it. Where PDF.js cannot run, a pointer to Open PDF and Download.
 */
export function InvoicePages({ pdf, parcelCode }: InvoicePagesProps) {
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ drawn: number; count: number } | 'failed'>({ drawn: 0, count: 0 });

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const controller = new AbortController();
    const { signal } = controller;
    import('../pdf/draw-pdf')
      .then(({ drawPdf }) =>
        drawPdf(pdf, element, {
          cssWidth: element.clientWidth,
          describe: (page, count) => invoicePageLabel(parcelCode, page, count),
          onPage: (page, count) => setState({ drawn: page, count }),
          signal,
        }),
      )
      .catch(() => {
        // Nothing drawn: the file card still opens or saves it. After the first page, keep what is shown.
        if (!signal.aborted && element.childElementCount === 0) setState('failed');
      });
    return () => {
      controller.abort();
      element.replaceChildren();
    };
  }, [pdf, parcelCode]);

  if (state === 'failed') return <Alert variant="info">{PAGES_NOT_DRAWN_MESSAGE}</Alert>;
  return (
    <>
      <div
        ref={container}
        className="invoice-pages"
        data-pages-drawn={state.drawn}
        aria-label={`Invoice ${parcelCode}`}
        role="region"
      />
      {/* Until the first page is drawn, and hidden by CSS the moment it is in the container, before React
          hears of it: a spinner below drawn pages would be pushed down by each (a layout shift). */}
      {state.drawn === 0 && (
        <div className="invoice-pages-spinner text-center py-4">
          <Spinner animation="border" variant="primary" role="status">
            <span className="visually-hidden">Loading invoice</span>
          </Spinner>
        </div>
      )}
    </>
  );
}
