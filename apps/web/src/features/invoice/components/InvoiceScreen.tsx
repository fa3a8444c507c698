import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Alert } from '@/components/Alert';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useLocation } from '@/lib/router';
import { ErrorModal } from '@/components/ErrorModal';
import { SupportLinks } from '@/components/SupportLinks';
import { AccountNotAllowed } from '@/components/AccountNotAllowed';
import { ApiError, errorCodeOf, requestIdOf } from '@/lib/api-client';
import { useRuntimeConfig } from '@/lib/runtime-config';
import { resultsAddressOf } from '@/lib/results-link';
import { readBeforeLogin } from '@/lib/storage';
import { useObjectUrl } from '@/hooks/use-object-url';
import { usePageTitle } from '@/hooks/use-page-title';
import { useInvoice } from '../api/get-invoice';
import { useInvoiceFacts } from '../api/get-invoice-facts';
import { InvoiceFactsPanel } from '../facts/InvoiceFactsPanel';
import { InvoiceWarningsSummary } from '../facts/InvoiceWarnings';
import {
  INVOICE_NOT_SHOWN_MESSAGE,
  invoiceErrorMessage,
  MISSING_PARCEL_CODE,
  NO_INVOICE_DATA_MESSAGE,
  NO_PARCEL_CODE_HINT,
  TRY_ANOTHER_CODE_HINT,
  canRetryInvoice,
  isAccountRefused,
  needsSupport,
} from '../messages';
import { chooseInvoiceView } from '../invoice-view';
import { readParcelCode } from '../parcel-code';
import { InvoiceActions } from './InvoiceActions';
import { InvoiceDocument } from './InvoiceDocument';
import { ParcelCodeForm } from './ParcelCodeForm';
import { ArrivalNoticeOffer } from '../records/ArrivalNoticeOffer';
import { HistoryToggle } from '../records/HistoryToggle';
import { InvoiceHistory } from '../records/InvoiceHistory';
import { RecentInvoicesMenu } from '../records/RecentInvoicesMenu';
import { useArrivalNotices } from '../records/records-api';

/** The invoice screen (/ and /invoice): the PDF for the link's parcel code. */
export default function InvoiceScreen() {
  const { search, hash, state } = useLocation();
  const parcelCode = useMemo(() => readParcelCode({ search, hash }, readBeforeLogin()), [search, hash]);
  const results = resultsAddressOf(state);
  // A link followed inside the app keeps the page's scroll: an invoice opened from far down the results would
  // open at its bottom, its title, actions and warnings off-screen.
  useLayoutEffect(() => {
    if (typeof window.scrollTo === 'function') window.scrollTo({ top: 0 });
  }, [parcelCode]);
  const { supportContact, arrivalNotices } = useRuntimeConfig();
  const invoice = useInvoice(parcelCode);
  // Asked for once the PDF was found: a mistyped code then costs one of the guessing allowance, not two.
  const facts = useInvoiceFacts(invoice.isSuccess ? parcelCode : null);
  usePageTitle(parcelCode ? `Invoice ${parcelCode}` : 'Invoice');
  const url = useObjectUrl(invoice.data);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const codeField = useRef<HTMLInputElement>(null);
  const [view] = useState(chooseInvoiceView);
  // "Continue" clears the flag for the error on screen; a new error (e.g. after Reload) raises it again.
  const [dismissed, setDismissed] = useState<unknown>(null);
  // Which code's history is open: another invoice opens with its history closed.
  const [historyOf, setHistoryOf] = useState<string | null>(null);

  const error = parcelCode === null ? MISSING_PARCEL_CODE : invoice.error;
  // Once the person asked to be told when it arrives, the request's confirmation is the page's news: the red
  // "could not be shown" above it would stay the loudest thing on it.
  const notFound = invoice.isError && errorCodeOf(invoice.error) === 'not-found';
  const notices = useArrivalNotices(arrivalNotices === true && notFound);
  const awaitingArrival = notFound && notices.data?.some((notice) => notice.parcelCode === parcelCode) === true;
  const message = error && error !== dismissed ? invoiceErrorMessage(error, supportContact) : null;
  const fileName = `${parcelCode}.pdf`;

  const print = () => {
    const frameWindow = frameRef.current?.contentWindow;
    if (!frameWindow) return;
    frameWindow.focus();
    frameWindow.print();
  };

  let body;
  if (parcelCode === null) {
    body = (
      <div className="invoice-help">
        <p>{NO_PARCEL_CODE_HINT}</p>
        <ParcelCodeForm inputRef={codeField} />
      </div>
    );
  } else if (invoice.isError && !invoice.isFetching && isAccountRefused(invoice.error)) {
    // No parcel code would help an account the portal does not admit: the way on is another account.
    body = <AccountNotAllowed reason={invoice.error instanceof ApiError ? invoice.error.serverMessage : undefined} />;
  } else if (invoice.isError && !invoice.isFetching) {
    // The reason stays on the page after "Continue", with a way on: another code, or whom to ask. While the
    // modal is open it says the reason itself, so the page behind does not say it a second time.
    body = (
      <div className="invoice-help">
        {!awaitingArrival && (
          <Alert variant="danger">
            <p className={message === null ? 'mb-1 fw-semibold' : 'mb-0 fw-semibold'}>{INVOICE_NOT_SHOWN_MESSAGE}</p>
            {message === null && <p className="mb-0">{invoiceErrorMessage(invoice.error, supportContact)}</p>}
          </Alert>
        )}
        {needsSupport(invoice.error) && <SupportLinks />}
        <p className="mb-2">{TRY_ANOTHER_CODE_HINT}</p>
        <ParcelCodeForm key={parcelCode} initialCode={parcelCode} inputRef={codeField} />
        {errorCodeOf(invoice.error) === 'not-found' && <ArrivalNoticeOffer parcelCode={parcelCode} />}
      </div>
    );
  } else if (invoice.data?.size === 0) {
    body = (
      <>
        <Alert variant="warning">{NO_INVOICE_DATA_MESSAGE}</Alert>
        <ArrivalNoticeOffer parcelCode={parcelCode} />
      </>
    );
  } else if (invoice.data && url) {
    body = <InvoiceDocument pdf={invoice.data} url={url} parcelCode={parcelCode} view={view} frameRef={frameRef} />;
  } else {
    // The frame's full height is held from the start, so the page does not jump when the PDF arrives.
    body = (
      <div className={view === 'frame' ? 'invoice-frame text-center pt-5' : 'text-center pt-5'}>
        <Spinner animation="border" variant="primary" role="status">
          <span className="visually-hidden">Loading invoice</span>
        </Spinner>
      </div>
    );
  }

  // A plain PDF has nothing to add, so its frame stays alone as the spec draws it, unless it replaced an
  // e-invoice and that (or an earlier change) still waits for a second person's look.
  const withPanel = facts.data && (facts.data.format !== 'pdf' || facts.data.warnings.length > 0);
  const shownFacts = withPanel && !invoice.isError ? facts.data : null;
  if (shownFacts) {
    // The invoice comes first: on a phone the panel follows it, and waiting warnings are summarised above it
    // (the panel holds them whole); on a laptop the panel stands beside it.
    body = (
      <div className="invoice-with-facts">
        {shownFacts.warnings.length > 0 && <InvoiceWarningsSummary warnings={shownFacts.warnings} />}
        <div className="invoice-document">{body}</div>
        <InvoiceFactsPanel facts={shownFacts} />
      </div>
    );
  }

  return (
    <main className="container py-3 py-md-4">
      {results && (
        <Link to={results} className="back-to-results d-inline-block mb-2">
          <span aria-hidden="true">&larr; </span>
          Back to results
        </Link>
      )}
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h4 mb-0 text-break">
          {parcelCode ? (
            <>
              Invoice <span className="font-monospace">{parcelCode}</span>
            </>
          ) : (
            'Invoice'
          )}
        </h1>
        <div className="d-flex flex-wrap gap-2">
          {parcelCode && !(invoice.isError && !invoice.isFetching && !canRetryInvoice(invoice.error)) && (
            <InvoiceActions
              url={invoice.data?.size ? url : null}
              fileName={fileName}
              view={view}
              reloading={invoice.isFetching}
              canReload={!invoice.isError || canRetryInvoice(invoice.error)}
              onPrint={print}
              onReload={() => void invoice.refetch()}
            />
          )}
          {parcelCode && invoice.isSuccess && invoice.data.size > 0 && (
            <HistoryToggle
              open={historyOf === parcelCode}
              onToggle={() => setHistoryOf(historyOf === parcelCode ? null : parcelCode)}
            />
          )}
          <RecentInvoicesMenu current={parcelCode} />
        </div>
      </div>
      {parcelCode && historyOf === parcelCode && invoice.isSuccess && <InvoiceHistory parcelCode={parcelCode} />}
      {body}
      {/* The way on after "Continue" is another code: focus goes to its field, not back to the page's body. */}
      <ErrorModal
        message={message}
        reference={requestIdOf(error)}
        onClose={() => setDismissed(error)}
        onExited={() => codeField.current?.focus()}
      />
    </main>
  );
}
