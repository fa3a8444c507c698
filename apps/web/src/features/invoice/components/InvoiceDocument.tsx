import type { Ref } from 'react';
import type { InvoiceView } from '../invoice-view';
import { InvoicePages } from './InvoicePages';

interface InvoiceDocumentProps {
  pdf: Blob;
  url: string;
  parcelCode: string;
  view: InvoiceView;
  frameRef: Ref<HTMLIFrameElement>;
}

/** The PDF: in the browser's own viewer in the spec's frame on a desktop, drawn page by page on phones. */
export function InvoiceDocument({ pdf, url, parcelCode, view, frameRef }: InvoiceDocumentProps) {
  if (view === 'frame') return <iframe ref={frameRef} className="invoice-frame" src={url} title={parcelCode} />;
  return <InvoicePages pdf={pdf} parcelCode={parcelCode} />;
}
