import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { InvoiceView } from '../invoice-view';

interface InvoiceActionsProps {
  /** The PDF's `blob:` URL; the file actions stay disabled until it exists. */
  url: string | null;
  fileName: string;
  /** With the frame: Download and Print (of the frame). With drawn pages: Open (in the device's viewer) and Download. */
  view: InvoiceView;
  reloading: boolean;
  /** Offered only where asking again can help (no answer or a server failure), not for an unknown code. */
  canReload: boolean;
  onPrint: () => void;
  onReload: () => void;
}

export function InvoiceActions({ url, fileName, view, reloading, canReload, onPrint, onReload }: InvoiceActionsProps) {
  return (
    <div className="d-flex flex-wrap gap-2" role="group" aria-label="Invoice actions">
      {view === 'pages' && (
        <a
          className={url ? 'btn btn-outline-dark' : 'btn btn-outline-dark disabled'}
          href={url ?? undefined}
          target="_blank"
          rel="noopener"
          aria-disabled={url ? undefined : true}
        >
          Open PDF
        </a>
      )}
      {/* A real link: the browser saves the file under its name; without a URL it is shown disabled. */}
      <a
        className={url ? 'btn btn-primary' : 'btn btn-primary disabled'}
        href={url ?? undefined}
        download={fileName}
        aria-disabled={url ? undefined : true}
      >
        Download
      </a>
      {view === 'frame' && (
        <Button variant="outline-dark" onClick={onPrint} disabled={!url}>
          Print
        </Button>
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
