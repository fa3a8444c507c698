import { Link } from '@/lib/router';
import { formatDateTime } from '@/lib/format-date';
import { invoicePathFor } from '@/lib/paths';
import { fromResults } from '@/lib/results-link';
import {
  amountOf,
  Badges,
  dayOf,
  INVOICES_TABLE_LABEL,
  SelectBox,
  ValidationBadge,
  type InvoiceResultsProps,
} from './InvoiceParts';

/** The results on a laptop: the admin list's density, one line per invoice, long names cut with an ellipsis. */
export function InvoicesTable({
  items,
  ticks,
  emptyText,
  oneBuyer,
  withDue,
  withValidation,
  resultsQuery,
}: InvoiceResultsProps) {
  return (
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
          {withValidation && <col className="col-validation" />}
          <col className="col-received" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col" className="select-cell">
              <label className="select-target">
                <input
                  type="checkbox"
                  className="form-check-input"
                  checked={ticks.allOnPage}
                  disabled={items.length === 0}
                  onChange={(event) => ticks.togglePage(event.target.checked)}
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
            {withValidation && <th scope="col">Validation</th>}
            <th scope="col">Received</th>
          </tr>
        </thead>
        <tbody>
          {items.map((invoice) => (
            <tr key={invoice.parcelCode}>
              <td className="select-cell">
                <SelectBox
                  code={invoice.parcelCode}
                  checked={ticks.selected.has(invoice.parcelCode)}
                  onChange={(on) => ticks.toggle(invoice.parcelCode, on)}
                />
              </td>
              <td>
                <Link to={invoicePathFor(invoice.parcelCode)} state={fromResults(resultsQuery)} className="cell-text">
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
              {withValidation && (
                <td>
                  <ValidationBadge invoice={invoice} />
                </td>
              )}
              <td className="text-nowrap small">{formatDateTime(invoice.uploadedAt)}</td>
            </tr>
          ))}
          {emptyText && items.length === 0 && (
            <tr>
              <td
                colSpan={9 + (withDue ? 1 : 0) + (withValidation ? 1 : 0) - (oneBuyer ? 1 : 0)}
                className="text-center text-body-secondary py-4"
              >
                {emptyText}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
