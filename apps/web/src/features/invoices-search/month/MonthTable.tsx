import type { InvoiceSearchSummary } from '@portal/contract';
import { formatMoney } from '@/lib/format-money';
import { monthLabel } from './month-series';

const count = new Intl.NumberFormat('en-GB');

/** The chart's figures as a table, every month of every currency: what a screen reader or a careful eye reads. */
export function MonthTable({ summary, caption }: { summary: InvoiceSearchSummary; caption: string }) {
  return (
    <div className="table-responsive month-table">
      <table className="table table-sm mb-0">
        <caption className="small">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Month of issue</th>
            <th scope="col">Currency</th>
            <th scope="col" className="text-end">
              Amount
            </th>
            <th scope="col" className="text-end">
              Invoices
            </th>
          </tr>
        </thead>
        <tbody>
          {summary.months.map((month) => (
            <tr key={`${month.currency}-${month.month}`}>
              <th scope="row" className="fw-normal">
                {monthLabel(month.month)}
              </th>
              <td>{month.currency}</td>
              <td className="text-end text-nowrap">{formatMoney(month.total, month.currency)}</td>
              <td className="text-end">{count.format(month.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
