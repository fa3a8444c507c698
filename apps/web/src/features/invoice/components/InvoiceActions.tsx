import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

interface InvoiceActionsProps {
  /** The PDF's `blob:` URL; the file actions stay disabled until it exists. */
  url: string | null;
  fileName: string;
  /** Download and Print sit in the toolbar only when the page shows the PDF itself. */
  inline: boolean;
  reloading: boolean;
  onPrint: () => void;
  onReload: () => void;
}

export function InvoiceActions({ url, fileName, inline, reloading, onPrint, onReload }: InvoiceActionsProps) {
  return (
    <div className="d-flex flex-wrap gap-2" role="group" aria-label="Invoice actions">
      {inline && (
        <>
          <Button as="a" variant="primary" href={url ?? undefined} download={fileName} disabled={!url}>
            Download
          </Button>
          <Button variant="outline-primary" onClick={onPrint} disabled={!url}>
            Print
          </Button>
        </>
      )}
      <Button variant="outline-secondary" onClick={onReload} disabled={reloading}>
        {reloading && <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />}
        Reload
      </Button>
    </div>
  );
}
