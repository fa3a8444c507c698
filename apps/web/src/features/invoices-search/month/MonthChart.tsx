import { useEffect, useRef, useState } from 'react';
import type UPlot from 'uplot';
import type { AlignedData, Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { handledWithoutReload } from '@/lib/chunk-reload';
import { uPlotSource } from './load-uplot';
import type { CurrencySeries } from './month-series';

/** Height of one currency's chart: the picture stays a glance, not a second screen. */
const CHART_HEIGHT = 112;
const HALF_MONTH = 16 * 24 * 60 * 60;

const secondsOf = (month: string) => Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1) / 1000;
const monthOfSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 7);

/** A currency's axis in short money ("€1.2K"); the bars' exact figures are in the table. */
const compactMoney = (currency: string) => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, notation: 'compact' });
  } catch {
    return new Intl.NumberFormat(undefined, { notation: 'compact' });
  }
};

/** How a month (`YYYY-MM`) is written under a bar: given by the page, so the chart's chunk shares no module with it. */
type MonthLabel = (month: string) => string;

function optionsOf(uPlot: typeof UPlot, { currency }: CurrencySeries, width: number, monthLabel: MonthLabel): Options {
  const axisMoney = compactMoney(currency);
  const colour = getComputedStyle(document.documentElement).getPropertyValue('--bs-primary').trim() || '#0d6efd';
  const text = getComputedStyle(document.documentElement).getPropertyValue('--bs-body-color').trim() || '#212529';
  return {
    width,
    height: CHART_HEIGHT,
    padding: [8, 28, 0, 0],
    scales: {
      // Half a month either side, so the first and last bars stand whole inside the chart.
      x: { time: true, range: (_chart, min, max) => [min - HALF_MONTH, max + HALF_MONTH] },
      y: { range: (_chart, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      {
        stroke: text,
        values: (_chart, splits) => splits.map((split) => monthLabel(monthOfSeconds(split))),
        space: 72,
        grid: { show: false },
      },
      {
        stroke: text,
        size: 64,
        values: (_chart, splits) => splits.map((split) => axisMoney.format(split)),
        grid: { stroke: 'rgba(0,0,0,0.08)' },
      },
    ],
    series: [
      { label: 'Month' },
      {
        label: currency,
        fill: colour,
        stroke: colour,
        width: 0,
        paths: uPlot.paths.bars?.({ size: [0.7, 48], align: 0 }),
        points: { show: false },
      },
    ],
    cursor: { points: { show: false }, drag: { x: false, y: false } },
    // No legend: one series, named by the figure's words; the exact figures are in the table.
    legend: { show: false },
  };
}

function dataOf({ bars }: CurrencySeries): AlignedData {
  return [bars.map((bar) => secondsOf(bar.month)), bars.map((bar) => (bar.total === null ? null : Number(bar.total)))];
}

export const CHART_FAILED = 'The chart could not be drawn just now: "Show as table" has its figures.';

/**
 * One currency's months as bars (uPlot, a canvas: hidden from assistive technology, which reads the text).
 * uPlot itself is imported here, when a chart is drawn: it measures the screen as it loads.
 */
function CurrencyChart({ series, monthLabel }: { series: CurrencySeries; monthLabel: MonthLabel }) {
  const holder = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const element = holder.current;
    if (!element) return undefined;
    let gone = false;
    let chart: UPlot | undefined;
    let resize: (() => void) | undefined;
    const widthOf = () => Math.max(200, Math.floor(element.clientWidth));
    uPlotSource.load().then(
      (uPlot) => {
        if (gone) return;
        const drawn = new uPlot(optionsOf(uPlot, series, widthOf(), monthLabel), dataOf(series), element);
        chart = drawn;
        // The chart's width follows the window's (the page's column is the window's width less its margins).
        resize = () => drawn.setSize({ width: widthOf(), height: CHART_HEIGHT });
        window.addEventListener('resize', resize);
      },
      (error: unknown) => {
        // The page carries on without the chart: no reload for it.
        handledWithoutReload(error);
        if (!gone) setFailed(true);
      },
    );
    return () => {
      gone = true;
      if (resize) window.removeEventListener('resize', resize);
      chart?.destroy();
    };
  }, [series, monthLabel]);
  return (
    <>
      <div ref={holder} className="month-chart-currency" data-currency={series.currency} />
      {failed && <p className="small mb-0">{CHART_FAILED}</p>}
    </>
  );
}

/**
 * The search's amounts by month of issue, one small chart per currency (never one axis for two currencies).
 * Loaded on its own, after the list: the page's first load does not carry the chart library.
 */
export default function MonthChart({
  series,
  description,
  monthLabel,
}: {
  series: CurrencySeries[];
  description: string;
  monthLabel: MonthLabel;
}) {
  return (
    <figure className="month-chart mb-0" role="img" aria-label={description}>
      <div aria-hidden="true">
        {series.map((one) => (
          <CurrencyChart key={one.currency} series={one} monthLabel={monthLabel} />
        ))}
      </div>
    </figure>
  );
}
