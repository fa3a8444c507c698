import { MAX_INVOICE_OFFSET } from '@portal/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useLocation } from '@/lib/router';
import { Alert } from '@/components/Alert';
import { Pager } from '@/components/Pager';
import { SelectionBar } from '@/components/SelectionBar';
import { PHONE_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { ApiError } from '@/lib/api-client';
import { formatMoney } from '@/lib/format-money';
import { totalsByCurrency } from '@/lib/money-totals';
import { useInvoiceSearchSummary } from '../api/search-summary';
import { useInvoiceSearch } from '../api/search-invoices';
import { useInvoiceSearchParams } from '../hooks/use-invoice-search-params';
import { useInvoiceSelection } from '../hooks/use-invoice-selection';
import { useZipDownload } from '../hooks/use-zip-download';
import {
  BY_CURRENCY_NOTE,
  SUMS_FAILED,
  PAGE_TOTALS_LABEL,
  allResultsButton,
  allToBuyer,
  filtersSummary,
  selectedText,
  totalText,
} from '../messages';
import { MonthPicture } from '../month/MonthPicture';
import { SearchTotals } from '../month/SearchTotals';
import { InvoiceCards } from './InvoiceCards';
import { InvoicesTable } from './InvoicesTable';
import { ResultsOrder } from './ResultsOrder';
import { SearchForm } from './SearchForm';
import { ZipOutcome } from './ZipOutcome';

const NO_MATCH = 'No invoices match.';

/**
 * The search, its results (a table on a laptop, cards on a phone, the admin list's density), paging and order
 * in the address, a selection kept across pages, and the ZIP of the selection or of all results.
 */
export function InvoicesPanel() {
  const { params, update } = useInvoiceSearchParams();
  const search = useInvoiceSearch(params);
  const phone = useMediaQuery(PHONE_QUERY);
  const { search: resultsQuery } = useLocation();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const items = search.data?.items ?? [];
  // A column with the same name on every row says nothing: the name goes above the table once instead.
  const firstBuyer = items[0]?.buyerName ?? null;
  const oneBuyer = items.length > 1 && items.every((item) => item.buyerName === firstBuyer) ? firstBuyer : null;
  const withDue = items.some((item) => item.dueDate);
  const withValidation = items.some((item) => item.validation);
  const pageTotals = totalsByCurrency(items.map((item) => ({ amount: item.totalGross, currency: item.currency })));
  const total = search.data?.total ?? 0;
  const atLeast = search.data?.totalIsAtLeast ?? false;
  const selection = useInvoiceSelection(items.map((item) => item.parcelCode));
  const { zip, running, download } = useZipDownload();
  // The sums come after the list: asked for once a page of this search has arrived.
  const summary = useInvoiceSearchSummary(params.filter, search.isSuccess && !search.isPlaceholderData);
  const sums = summary.data;
  // On one page, this page's totals are the search's: said once.
  const pageIsAll = !atLeast && items.length === total;
  const byAmount = params.sort === 'amount' || params.sort === '-amount';

  const searchError =
    search.error instanceof ApiError && search.error.message
      ? search.error.message
      : search.error
        ? 'The search failed. Please try again.'
        : null;
  const Results = phone ? InvoiceCards : InvoicesTable;

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
      <div className="invoice-bars">
        <div className="users-view-bar">
          <span className="small" aria-live="polite">
            {search.isPending ? 'Searching…' : totalText(total, atLeast)}
            {byAmount && <span className="d-block d-sm-inline ms-sm-2 text-body-secondary">{BY_CURRENCY_NOTE}</span>}
          </span>
          <ResultsOrder params={params} onChange={update} />
        </div>
        <SelectionBar
          className="invoice-zip-bar"
          label="Download as ZIP"
          selected={selection.selected.size}
          selectedText={selectedText(selection.selected.size)}
        >
          <Button
            size="sm"
            disabled={selection.selected.size === 0 || running}
            onClick={() => void download({ parcelCodes: [...selection.selected] })}
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
          {selection.selected.size > 0 && (
            <Button size="sm" variant="link" onClick={selection.clear}>
              Clear selection
            </Button>
          )}
        </SelectionBar>
      </div>
      <ZipOutcome zip={zip} />
      {(sums || summary.isError || pageTotals.length > 0 || oneBuyer) && (
        <p className="invoice-page-totals small mb-2">
          {sums && <SearchTotals summary={sums} />}
          {summary.isError && <span className="d-block d-sm-inline me-sm-3">{SUMS_FAILED}</span>}
          {pageTotals.length > 0 && !(sums && pageIsAll) && (
            <span className={sums ? 'd-block d-sm-inline ms-sm-3' : undefined}>
              <span className="fw-semibold">{PAGE_TOTALS_LABEL}</span>{' '}
              {pageTotals.map(({ currency, total, count }, index) => (
                <span key={currency} className="text-nowrap">
                  {index > 0 && ' · '}
                  {formatMoney(total, currency)} ({count})
                </span>
              ))}
            </span>
          )}
          {oneBuyer && <span className="d-block d-sm-inline ms-sm-3">{allToBuyer(oneBuyer)}</span>}
        </p>
      )}
      <Results
        items={items}
        ticks={selection}
        emptyText={search.isPending ? null : NO_MATCH}
        oneBuyer={oneBuyer}
        withDue={withDue}
        withValidation={withValidation}
        resultsQuery={resultsQuery}
      />
      {total > 0 && (
        <div className="mt-2">
          <Pager
            page={params.page}
            pageSize={params.pageSize}
            total={total}
            totalIsAtLeast={atLeast}
            // Pages go as deep as the server's offset limit, however many match.
            maxPage={Math.floor(MAX_INVOICE_OFFSET / params.pageSize)}
            noun="invoices"
            onPage={(page) => update({ page })}
          />
        </div>
      )}
      {sums && total > 0 && <MonthPicture summary={sums} />}
    </section>
  );
}
