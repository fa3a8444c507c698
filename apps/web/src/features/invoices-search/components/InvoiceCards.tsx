import { Link } from '@/lib/router';
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

/** The results on a phone: one card per invoice, "Select this page" above them. */
export function InvoiceCards({ items, ticks, emptyText, oneBuyer, resultsQuery }: InvoiceResultsProps) {
  return (
    <ul className="invoice-cards list-unstyled" aria-label={INVOICES_TABLE_LABEL}>
      {items.length > 0 && (
        <li className="invoice-card-all">
          <label className="select-target gap-2">
            <input
              type="checkbox"
              className="form-check-input"
              checked={ticks.allOnPage}
              onChange={(event) => ticks.togglePage(event.target.checked)}
            />
            Select this page
          </label>
        </li>
      )}
      {items.map((invoice) => (
        <li key={invoice.parcelCode} className="invoice-card">
          <SelectBox
            code={invoice.parcelCode}
            checked={ticks.selected.has(invoice.parcelCode)}
            onChange={(on) => ticks.toggle(invoice.parcelCode, on)}
          />
          <div className="min-w-0 flex-grow-1">
            <div className="d-flex justify-content-between gap-2">
              <Link
                to={invoicePathFor(invoice.parcelCode)}
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
              {oneBuyer ? (invoice.sellerName ?? '—') : `${invoice.sellerName ?? '—'} → ${invoice.buyerName ?? '—'}`}
            </div>
            <div className="status-badges mt-1">
              <Badges invoice={invoice} />
              {invoice.validation && <ValidationBadge invoice={invoice} />}
            </div>
          </div>
        </li>
      ))}
      {emptyText && items.length === 0 && <li className="text-center py-4">{emptyText}</li>}
    </ul>
  );
}
