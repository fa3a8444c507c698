import type { InvoiceSearchSummary } from '@portal/contract';
import { Suspense, useEffect, useId, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { lazyWithPreload } from '@/lib/lazy-with-preload';
import { describeSeries, monthLabel, seriesOf, MONTHS_CHARTED } from './month-series';
import { MonthTable } from './MonthTable';

/** Without the chart's code (a failed download), the chart's words stand in for it; the table still opens. */
function ChartInWords({ description }: { description: string }) {
  return <p className="small mb-0">{description}</p>;
}
const MonthChart = lazyWithPreload(() => import('./MonthChart'), ChartInWords);

export const PICTURE_TITLE = 'Amounts by month';

/**
 * The whole search's amounts by month of issue, per currency: a small chart (its code loaded after the list)
 * with its words as the text alternative, or the same figures as a table, one button apart.
 */
export function MonthPicture({ summary }: { summary: InvoiceSearchSummary }) {
  const [asTable, setAsTable] = useState(false);
  const headingId = useId();
  const series = useMemo(() => seriesOf(summary), [summary]);
  const description = useMemo(() => describeSeries(series), [series]);
  useEffect(() => {
    void MonthChart.preload().catch(() => undefined);
  }, []);
  if (summary.months.length === 0) return null;
  const cut = series.some((one) => one.bars.length >= MONTHS_CHARTED);
  return (
    <section className="month-picture" aria-labelledby={headingId}>
      <div className="month-picture-bar">
        <h2 id={headingId} className="h6 mb-0">
          {PICTURE_TITLE}
        </h2>
        <Button variant="link" size="sm" className="p-0" onClick={() => setAsTable((shown) => !shown)}>
          {asTable ? 'Show as chart' : 'Show as table'}
        </Button>
      </div>
      {asTable ? (
        <MonthTable summary={summary} caption="Invoice amounts by month of issue, per currency" />
      ) : (
        <>
          {/*
            Its own boundary: without one, the chart's code arriving would hand the whole page to the app's
            spinner (hiding the search form someone may be typing in) instead of showing the chart's words.
          */}
          <Suspense fallback={<ChartInWords description={description} />}>
            <MonthChart series={series} description={description} monthLabel={monthLabel} />
          </Suspense>
          {cut && <p className="small mb-0">The latest {MONTHS_CHARTED} months; the table has every month.</p>}
        </>
      )}
    </section>
  );
}
