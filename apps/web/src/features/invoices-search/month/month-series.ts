import type { InvoiceSearchSummary } from '@portal/contract';
import { formatMoney } from '@/lib/format-money';

/** One month's bar: the month (`YYYY-MM`), its exact total (null when nothing was issued that month). */
export interface MonthBar {
  month: string;
  total: string | null;
  count: number;
}

/** One currency's months, first to last with the empty ones in between, so a gap shows as a gap. */
export interface CurrencySeries {
  currency: string;
  bars: MonthBar[];
}

const monthIndex = (month: string) => {
  const [year, number] = month.split('-').map(Number);
  return (year ?? 0) * 12 + (number ?? 1) - 1;
};
const monthOf = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/** The months in a chart: beyond these many, only the latest (the table keeps every month). */
export const MONTHS_CHARTED = 36;

/** The summary's months per currency, in the summary's currency order, gaps filled, at most the latest few. */
export function seriesOf(summary: InvoiceSearchSummary, limit = MONTHS_CHARTED): CurrencySeries[] {
  return summary.currencies.flatMap(({ currency }) => {
    const months = summary.months.filter((month) => month.currency === currency);
    if (months.length === 0) return [];
    const byMonth = new Map(months.map((month) => [month.month, month]));
    const last = Math.max(...months.map((month) => monthIndex(month.month)));
    const first = Math.max(Math.min(...months.map((month) => monthIndex(month.month))), last - limit + 1);
    const bars: MonthBar[] = [];
    for (let index = first; index <= last; index++) {
      const month = monthOf(index);
      const found = byMonth.get(month);
      bars.push({ month, total: found?.total ?? null, count: found?.count ?? 0 });
    }
    return [{ currency, bars }];
  });
}

const monthName = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
/** "Jan 2026", as the portal writes dates (month as a word). */
export const monthLabel = (month: string) => monthName.format(new Date(`${month}-01T00:00:00Z`));

/**
 * The chart in words, its text alternative: per currency, the months it covers and its largest month. A
 * screen reader hears the gist; the table behind the chart has every figure.
 */
export function describeSeries(series: CurrencySeries[], locale?: string): string {
  if (series.length === 0) return 'No amounts by month for this search.';
  const parts = series.map(({ currency, bars }) => {
    const filled = bars.filter((bar) => bar.total !== null);
    const largest = filled.reduce((top, bar) => (Number(bar.total) > Number(top.total) ? bar : top), filled[0]!);
    const first = bars[0]!.month;
    const last = bars.at(-1)!.month;
    const span = first === last ? monthLabel(first) : `${monthLabel(first)} to ${monthLabel(last)}`;
    return `${currency}, ${span}: largest ${monthLabel(largest.month)}, ${formatMoney(largest.total, currency, locale)}`;
  });
  return `Invoice amounts by month of issue. ${parts.join('. ')}.`;
}
