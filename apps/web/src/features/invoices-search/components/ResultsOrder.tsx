import { INVOICE_PAGE_SIZES, INVOICE_SORTS, type InvoiceSort } from '@portal/contract';
import type { InvoiceSearchParams } from '../hooks/use-invoice-search-params';
import { SORT_NAMES } from '../messages';

/** The results' order and page size. */
export function ResultsOrder({
  params,
  onChange,
}: {
  params: InvoiceSearchParams;
  onChange: (change: Partial<InvoiceSearchParams>) => void;
}) {
  return (
    <div className="list-controls">
      <label className="visually-hidden" htmlFor="invoices-sort">
        Order
      </label>
      <select
        id="invoices-sort"
        className="form-select form-select-sm w-auto"
        value={params.sort}
        onChange={(event) => onChange({ sort: event.target.value as InvoiceSort })}
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
        onChange={(event) => onChange({ pageSize: Number(event.target.value) })}
      >
        {INVOICE_PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size} per page
          </option>
        ))}
      </select>
    </div>
  );
}
