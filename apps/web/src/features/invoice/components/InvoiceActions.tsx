import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

interface InvoiceActionsProps {
  /** The PDF's `blob:` URL; the file actions stay disabled until it exists. */
  url: string | null;
  fileName: string;
  /** Download and Print sit in the toolbar only when the page shows the PDF itself. */
  inline: boolean;
  reloading: boolean;
  /** Offered only where asking again can help (no answer or a server failure), not for an unknown code. */
  canReload: boolean;
  onPrint: () => void;
  onReload: () => void;
}

export function InvoiceActions({
  url,
  fileName,
  inline,
  reloading,
  canReload,
  onPrint,
  onReload,
}: InvoiceActionsProps) {
  return (
    <div className="d-flex flex-wrap gap-2" role="group" aria-label="Invoice actions">
      {inline && (
        <>
          {/* A real link: the browser saves the file under its name; without a URL it is shown disabled. */}
          <a
            className={url ? 'btn btn-primary' : 'btn btn-primary disabled'}
            href={url ?? undefined}
            download={fileName}
            aria-disabled={url ? undefined : true}
          >
            Download
          </a>
          <Button variant="outline-dark" onClick={onPrint} disabled={!url}>
            Print
          </Button>
        </>
      )}
      {canReload && (
        <Button variant="outline-dark" onClick={onReload} disabled={reloading}>
          {reloading && <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />}
          Reload
        </Button>
      )}
    </div>
  );
}
