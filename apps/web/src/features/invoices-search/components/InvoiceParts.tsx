import type { InvoiceSummary } from '@portal/contract';
import { formatDate } from '@/lib/format-date';
import { formatMoney } from '@/lib/format-money';
import { FORMAT_BADGES, FORMAT_NAMES, NOT_CHECKED, VALIDATION_BADGES } from '../messages';

/** The accessible name the e2e test finds the results by, as a table on a laptop and a list on a phone. */
export const INVOICES_TABLE_LABEL = 'Invoices found';

/** In the reader's locale with the invoice's own currency ("€1,190.00", "1.190,00 €", "NOK 1,000.00"). */
export const amountOf = (invoice: InvoiceSummary) => formatMoney(invoice.totalGross, invoice.currency) ?? '—';
export const dayOf = (date: string | null) => (date ? formatDate(`${date}T00:00:00`) : '—');

/** The ticked invoices and how to tick one, as the table and the cards both take them. */
export interface InvoiceTicks {
  selected: ReadonlySet<string>;
  allOnPage: boolean;
  toggle: (code: string, on: boolean) => void;
  togglePage: (on: boolean) => void;
}

/** One page of results, drawn as the table (laptop) or the cards (phone). */
export interface InvoiceResultsProps {
  items: InvoiceSummary[];
  ticks: InvoiceTicks;
  /** Said when nothing matches; null while the search runs. */
  emptyText: string | null;
  /** The buyer every row names, said once above the results instead of on each; null when they differ. */
  oneBuyer: string | null;
  /** Whether an invoice on the page names a due date: plain PDFs have none, and an empty column says nothing. */
  withDue: boolean;
  /** Whether an invoice on the page was checked against EN 16931: a page of plain PDFs has nothing to say. */
  withValidation: boolean;
  /** The results' address query, carried to an opened invoice for its "Back to results". */
  resultsQuery: string;
}

export function SelectBox({
  code,
  checked,
  onChange,
}: {
  code: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
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

/** The stored EN 16931 check, a calm badge whose title says what it means; a dash where nothing was checked. */
export function ValidationBadge({ invoice }: { invoice: InvoiceSummary }) {
  if (!invoice.validation) {
    return (
      <span className="text-body-secondary" title={NOT_CHECKED.label}>
        <span aria-hidden="true">{NOT_CHECKED.text}</span>
        <span className="visually-hidden">{NOT_CHECKED.label}</span>
      </span>
    );
  }
  const badge = VALIDATION_BADGES[invoice.validation];
  return (
    <span className={`badge status-badge ${badge.tone}`} title={badge.title}>
      {badge.text}
    </span>
  );
}

export function Badges({ invoice }: { invoice: InvoiceSummary }) {
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
