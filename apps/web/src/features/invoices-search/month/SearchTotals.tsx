import type { InvoiceSearchSummary } from '@portal/contract';
import { formatMoney } from '@/lib/format-money';

const count = new Intl.NumberFormat('en-GB');
export const ALL_TOTALS_LABEL = 'All results:';

/** The whole search's totals, one per currency (never one sum across them), and what has no amount. */
export function SearchTotals({ summary }: { summary: InvoiceSearchSummary }) {
  const parts = summary.currencies.map(
    ({ currency, total, count: invoices }) => `${formatMoney(total, currency)} (${count.format(invoices)})`,
  );
  if (summary.withoutAmount > 0) parts.push(`${count.format(summary.withoutAmount)} without an amount`);
  if (parts.length === 0) return null;
  return (
    <span className="search-totals">
      <span className="fw-semibold">{ALL_TOTALS_LABEL}</span>{' '}
      {parts.map((part, index) => (
        <span key={part} className="text-nowrap">
          {index > 0 && ' · '}
          {part}
        </span>
      ))}
    </span>
  );
}
