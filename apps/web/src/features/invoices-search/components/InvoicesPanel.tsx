import {
  INVOICE_PAGE_SIZES,
  INVOICE_SORTS,
  MAX_INVOICE_OFFSET,
  MAX_ZIP_INVOICES,
  type InvoiceSort,
  type InvoiceSummary,
  type InvoiceZipBody,
} from '@portal/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useLocation } from 'react-router';
import { Alert } from '@/components/Alert';
import { PHONE_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { ApiError, useApiClient } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format-date';
import { formatMoney } from '@/lib/format-money';
import { totalsByCurrency } from '@/lib/money-totals';
import { paths } from '@/lib/paths';
import { fromResults } from '@/lib/results-link';
import { downloadInvoicesZip, type ZipProgress } from '../api/download-zip';
import { useInvoiceSearch } from '../api/search-invoices';
import { useInvoiceSearchParams } from '../hooks/use-invoice-search-params';
import { useKeptSelection } from '../hooks/use-kept-selection';
import {
  FORMAT_BADGES,
  FORMAT_NAMES,
  SORT_NAMES,
  PAGE_TOTALS_LABEL,
  allResultsButton,
  allToBuyer,
  filtersSummary,
  selectedText,
  totalText,
  zipDoneText,
  zipProgressText,
} from '../messages';
import { SearchForm } from './SearchForm';

/** The accessible name the e2e test finds the results by. */
export const INVOICES_TABLE_LABEL = 'Invoices found';

const invoiceLink = (parcelCode: string) => `${paths.invoice}?${new URLSearchParams({ parcelCode }).toString()}`;
/** In the reader's locale with the invoice's own currency ("€1,190.00", "1.190,00 €", "NOK 1,000.00"). */
const amountOf = (invoice: InvoiceSummary) => formatMoney(invoice.totalGross, invoice.currency) ?? '—';
const dayOf = (date: string | null) => (date ? formatDate(`${date}T00:00:00`) : '—');

type ZipState =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ZipProgress | null }
  | { kind: 'done'; count: number | null }
  | { kind: 'failed'; message: string };

function SelectBox({ code, checked, onChange }: { code: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="select-target">
      <input
        type="checkbox"
        className="form-check-input"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="visually-hidden">Select {code}</span>
    </label>
  );
}

function Badges({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <>
      <span className="badge status-badge status-neutral" title={FORMAT_NAMES[invoice.format]}>
        {FORMAT_BADGES[invoice.format]}
      </span>
      {invoice.bankDetailsChanged && (
        <span
          className="badge status-badge status-invited"
          title="Its payment accounts changed and nobody has checked yet"
        >
          Bank changed
        </span>
      )}
      {invoice.amountChanged && (
        <span className="badge status-badge status-invited" title="Its amount due changed and nobody has checked yet">
          Amount changed
        </span>
      )}
    </>
  );
}

/**
 * The search, its results (a table on a laptop, cards on a phone, the admin list's density), paging and order
 * in the address, a selection kept across pages, and the ZIP of the selection or of all results.
 */
export function InvoicesPanel() {
  const api = useApiClient();
  const { params, update } = useInvoiceSearchParams();
  const search = useInvoiceSearch(params);
  const phone = useMediaQuery(PHONE_QUERY);
  const [selected, setSelected] = useKeptSelection();
  const { search: resultsQuery } = useLocation();
  const [zip, setZip] = useState<ZipState>({ kind: 'idle' });
  const [filtersOpen, setFiltersOpen] = useState(false);

  const items = search.data?.items ?? [];
  // A column with the same name on every row says nothing: the name goes above the table once instead.
  const firstBuyer = items[0]?.buyerName ?? null;
  const oneBuyer = items.length > 1 && items.every((item) => item.buyerName === firstBuyer) ? firstBuyer : null;
  // Shown only when an invoice on the page names a due date: plain PDFs have none, and an empty column says nothing.
  const withDue = items.some((item) => item.dueDate);
  const pageTotals = totalsByCurrency(items.map((item) => ({ amount: item.totalGross, currency: item.currency })));
  const total = search.data?.total ?? 0;
  const atLeast = search.data?.totalIsAtLeast ?? false;
  const reachable = Math.min(total, MAX_INVOICE_OFFSET + params.pageSize);
  const lastPage = Math.max(0, Math.ceil(reachable / params.pageSize) - 1);
  // Past the count ("more than 1,000") there are more pages, as deep as the server pages.
  const hasNext = params.page < lastPage || (atLeast && (params.page + 1) * params.pageSize <= MAX_INVOICE_OFFSET);
  const toggle = (code: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on && next.size < MAX_ZIP_INVOICES) next.add(code);
      else next.delete(code);
      return next;
    });
  const allOnPage = items.length > 0 && items.every((item) => selected.has(item.parcelCode));
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const item of items) {
        if (on && next.size < MAX_ZIP_INVOICES) next.add(item.parcelCode);
        if (!on) next.delete(item.parcelCode);
      }
      return next;
    });

  const download = async (body: InvoiceZipBody) => {
    setZip({ kind: 'running', progress: null });
    let count: number | null = null;
    try {
      await downloadInvoicesZip(api, body, (progress) => {
        count = progress.count;
        setZip({ kind: 'running', progress });
      });
      setZip({ kind: 'done', count });
    } catch (error) {
      setZip({
        kind: 'failed',
        message:
          error instanceof ApiError && error.message
            ? error.message
            : 'The ZIP could not be downloaded. Please try again.',
      });
    }
  };
  const running = zip.kind === 'running';
  const progress = zip.kind === 'running' ? zip.progress : null;
  const percent = progress?.expected
    ? Math.min(99, Math.round((100 * progress.received) / progress.expected))
    : undefined;

  const searchError =
    search.error instanceof ApiError && search.error.message
      ? search.error.message
      : search.error
        ? 'The search failed. Please try again.'
        : null;

  return (
    <section className="invoices-panel" aria-label="Invoices">
      {phone ? (
        <details
          className="invoice-search-toggle mb-2"
          open={filtersOpen}
          onToggle={(event) => setFiltersOpen(event.currentTarget.open)}
        >
          <summary>{filtersSummary(params.filter)}</summary>
          <SearchForm
            filter={params.filter}
            onSearch={(filter) => {
              setFiltersOpen(false);
              update({ filter });
            }}
          />
        </details>
      ) : (
        <SearchForm filter={params.filter} onSearch={(filter) => update({ filter })} />
      )}
      {searchError && <Alert variant="danger">{searchError}</Alert>}
      <div className="users-view-bar">
        <span className="small" aria-live="polite">
          {search.isPending ? 'Searching…' : totalText(total, atLeast)}
        </span>
        <div className="list-controls">
          <label className="visually-hidden" htmlFor="invoices-sort">
            Order
          </label>
          <select
            id="invoices-sort"
            className="form-select form-select-sm w-auto"
            value={params.sort}
            onChange={(event) => update({ sort: event.target.value as InvoiceSort })}
          >
            {INVOICE_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {SORT_NAMES[sort]}
              </option>
            ))}
          </select>
          <label className="visually-hidden" htmlFor="invoices-size">
            Invoices per page
          </label>
          <select
            id="invoices-size"
            className="form-select form-select-sm w-auto"
            value={params.pageSize}
            onChange={(event) => update({ pageSize: Number(event.target.value) })}
          >
            {INVOICE_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size} per page
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="invoice-zip-bar" role="group" aria-label="Download as ZIP">
        <span className="small">{selectedText(selected.size)}</span>
        <Button
          size="sm"
          disabled={selected.size === 0 || running}
          onClick={() => void download({ parcelCodes: [...selected] })}
        >
          Download selected (ZIP)
        </Button>
        <Button
          size="sm"
          variant="outline-primary"
          disabled={total === 0 || running}
          onClick={() => void download({ search: params.filter, sort: params.sort })}
        >
          {allResultsButton(total, atLeast)}
        </Button>
        {selected.size > 0 && (
          <Button size="sm" variant="link" onClick={() => setSelected(new Set())}>
            Clear selection
          </Button>
        )}
      </div>
      {zip.kind === 'running' && (
        <div className="mb-3">
          <div
            className="progress"
            role="progressbar"
            aria-label="ZIP download"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <div
              className={`progress-bar${percent === undefined ? ' progress-bar-striped progress-bar-animated' : ''}`}
              style={{ width: `${percent ?? 100}%` }}
            />
          </div>
          <p className="small mt-1 mb-0" aria-live="polite">
            {progress ? zipProgressText(progress.received, progress.expected, progress.count) : 'Preparing the ZIP…'}
          </p>
        </div>
      )}
      {zip.kind === 'done' && <Alert variant="success">{zipDoneText(zip.count)}</Alert>}
      {zip.kind === 'failed' && <Alert variant="danger">{zip.message}</Alert>}

      {(pageTotals.length > 0 || oneBuyer) && (
        <p className="invoice-page-totals small mb-2">
          {pageTotals.length > 0 && (
            <>
              <span className="fw-semibold">{PAGE_TOTALS_LABEL}</span>{' '}
              {pageTotals.map(({ currency, total, count }, index) => (
                <span key={currency} className="text-nowrap">
                  {index > 0 && ' · '}
                  {formatMoney(total, currency)} ({count})
                </span>
              ))}
            </>
          )}
          {oneBuyer && <span className="d-block d-sm-inline ms-sm-3">{allToBuyer(oneBuyer)}</span>}
        </p>
      )}
      {phone ? (
        <ul className="invoice-cards list-unstyled" aria-label={INVOICES_TABLE_LABEL}>
          {items.length > 0 && (
            <li className="invoice-card-all">
              <label className="select-target gap-2">
                <input
                  type="checkbox"
                  className="form-check-input"
                  checked={allOnPage}
                  onChange={(event) => togglePage(event.target.checked)}
                />
                Select this page
              </label>
            </li>
          )}
          {items.map((invoice) => (
            <li key={invoice.parcelCode} className="invoice-card">
              <SelectBox
                code={invoice.parcelCode}
                checked={selected.has(invoice.parcelCode)}
                onChange={(on) => toggle(invoice.parcelCode, on)}
              />
              <div className="min-w-0 flex-grow-1">
                <div className="d-flex justify-content-between gap-2">
                  <Link
                    to={invoiceLink(invoice.parcelCode)}
                    state={fromResults(resultsQuery)}
                    className="fw-semibold text-truncate"
                  >
                    {invoice.parcelCode}
                  </Link>
                  <span className="text-nowrap">{amountOf(invoice)}</span>
                </div>
                <div className="small text-truncate">
                  {invoice.invoiceNumber ?? 'No invoice number'} · {dayOf(invoice.issueDate)}
                  {invoice.dueDate ? ` · due ${dayOf(invoice.dueDate)}` : ''}
                </div>
                <div className="small text-truncate">
                  {oneBuyer
                    ? (invoice.sellerName ?? '—')
                    : `${invoice.sellerName ?? '—'} → ${invoice.buyerName ?? '—'}`}
                </div>
                <div className="status-badges mt-1">
                  <Badges invoice={invoice} />
                </div>
              </div>
            </li>
          ))}
          {!search.isPending && items.length === 0 && <li className="text-center py-4">No invoices match.</li>}
        </ul>
      ) : (
        <div className="table-responsive">
          <table
            className="table table-hover admin-table invoices-table align-middle mb-0"
            aria-label={INVOICES_TABLE_LABEL}
          >
            <colgroup>
              <col className="col-select" />
              <col className="col-code" />
              <col className="col-number" />
              <col className="col-issued" />
              {withDue && <col className="col-issued" />}
              <col />
              {!oneBuyer && <col />}
              <col className="col-amount" />
              <col className="col-kind" />
              <col className="col-received" />
            </colgroup>
            <thead>
              <tr>
                <th scope="col" className="select-cell">
                  <label className="select-target">
                    <input
                      type="checkbox"
                      className="form-check-input"
                      checked={allOnPage}
                      disabled={items.length === 0}
                      onChange={(event) => togglePage(event.target.checked)}
                    />
                    <span className="visually-hidden">Select this page</span>
                  </label>
                </th>
                <th scope="col">Parcel code</th>
                <th scope="col">Invoice no.</th>
                <th scope="col">Issued</th>
                {withDue && <th scope="col">Due</th>}
                <th scope="col">Seller</th>
                {!oneBuyer && <th scope="col">Buyer</th>}
                <th scope="col" className="text-end">
                  Amount
                </th>
                <th scope="col">Format</th>
                <th scope="col">Received</th>
              </tr>
            </thead>
            <tbody>
              {items.map((invoice) => (
                <tr key={invoice.parcelCode}>
                  <td className="select-cell">
                    <SelectBox
                      code={invoice.parcelCode}
                      checked={selected.has(invoice.parcelCode)}
                      onChange={(on) => toggle(invoice.parcelCode, on)}
                    />
                  </td>
                  <td>
                    <Link to={invoiceLink(invoice.parcelCode)} state={fromResults(resultsQuery)} className="cell-text">
                      {invoice.parcelCode}
                    </Link>
                  </td>
                  <td>
                    <span className="cell-text" title={invoice.invoiceNumber ?? undefined}>
                      {invoice.invoiceNumber ?? '—'}
                    </span>
                  </td>
                  <td className="text-nowrap">{dayOf(invoice.issueDate)}</td>
                  {withDue && <td className="text-nowrap">{dayOf(invoice.dueDate ?? null)}</td>}
                  <td>
                    <span className="cell-text" title={invoice.sellerName ?? undefined}>
                      {invoice.sellerName ?? '—'}
                    </span>
                  </td>
                  {!oneBuyer && (
                    <td>
                      <span className="cell-text" title={invoice.buyerName ?? undefined}>
                        {invoice.buyerName ?? '—'}
                      </span>
                    </td>
                  )}
                  <td className="text-end text-nowrap">{amountOf(invoice)}</td>
                  <td>
                    <div className="status-badges">
                      <Badges invoice={invoice} />
                    </div>
                  </td>
                  <td className="text-nowrap small">{formatDateTime(invoice.uploadedAt)}</td>
                </tr>
              ))}
              {!search.isPending && items.length === 0 && (
                <tr>
                  <td colSpan={9} className="text-center text-body-secondary py-4">
                    No invoices match.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {(lastPage > 0 || hasNext) && (
        <nav className="d-flex align-items-center justify-content-end gap-2 mt-3" aria-label="Invoice pages">
          <Button
            variant="outline-primary"
            size="sm"
            disabled={params.page === 0}
            onClick={() => update({ page: params.page - 1 })}
          >
            Previous
          </Button>
          <span className="small" aria-current="page">
            Page {params.page + 1} of {lastPage + 1}
            {atLeast ? '+' : ''}
          </span>
          <Button
            variant="outline-primary"
            size="sm"
            disabled={!hasNext}
            onClick={() => update({ page: params.page + 1 })}
          >
            Next
          </Button>
        </nav>
      )}
    </section>
  );
}
