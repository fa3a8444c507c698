import type { Ref } from 'react';
import Card from 'react-bootstrap/Card';

interface InvoiceDocumentProps {
  url: string;
  parcelCode: string;
  fileName: string;
  size: number;
  inline: boolean;
  frameRef: Ref<HTMLIFrameElement>;
}

const kilobytes = (size: number) => `${Math.max(1, Math.round(size / 1024))} KB`;

/** The PDF in the page where the browser can show it; elsewhere (phones) a card to open or save it. */
export function InvoiceDocument({ url, parcelCode, fileName, size, inline, frameRef }: InvoiceDocumentProps) {
  if (inline) return <iframe ref={frameRef} className="invoice-frame" src={url} title={parcelCode} />;
  return (
    <Card className="text-center shadow-sm">
      <Card.Body className="py-5 px-3">
        <div className="invoice-file-badge mx-auto mb-3" aria-hidden="true">
          PDF
        </div>
        <Card.Title as="h2" className="h5 text-break mb-1">
          {fileName}
        </Card.Title>
        <p className="small text-body-secondary mb-3">PDF document · {kilobytes(size)}</p>
        <Card.Text>
          This browser cannot show the invoice inside the page. Open it in your PDF viewer or download it.
        </Card.Text>
        <div className="d-flex flex-column flex-sm-row justify-content-center gap-2">
          <a className="btn btn-primary" href={url} target="_blank" rel="noopener">
            Open PDF
          </a>
          <a className="btn btn-outline-primary" href={url} download={fileName}>
            Download
          </a>
        </div>
      </Card.Body>
    </Card>
  );
}
