import { describe, expect, it } from 'vitest';
import { describeSeries, monthLabel, seriesOf } from './month-series';

const summary = {
  currencies: [
    { currency: 'EUR', total: '300.35', count: 3 },
    { currency: 'NOK', total: '5000.00', count: 1 },
    { currency: 'USD', total: '10.00', count: 1 },
  ],
  months: [
    { currency: 'EUR', month: '2025-11', total: '100.10', count: 1 },
    { currency: 'EUR', month: '2026-02', total: '200.25', count: 2 },
    { currency: 'NOK', month: '2026-01', total: '5000.00', count: 1 },
  ],
  withoutAmount: 0,
};

describe('the month picture’s figures', () => {
  it('gives each currency its months first to last, empty months in between, currencies without months left out', () => {
    expect(seriesOf(summary)).toEqual([
      {
        currency: 'EUR',
        bars: [
          { month: '2025-11', total: '100.10', count: 1 },
          { month: '2025-12', total: null, count: 0 },
          { month: '2026-01', total: null, count: 0 },
          { month: '2026-02', total: '200.25', count: 2 },
        ],
      },
      { currency: 'NOK', bars: [{ month: '2026-01', total: '5000.00', count: 1 }] },
    ]);
  });

  it('charts only the latest months of a long search', () => {
    const [eur] = seriesOf(summary, 2);
    expect(eur?.bars.map((bar) => bar.month)).toEqual(['2026-01', '2026-02']);
  });

  it('says the chart in words: per currency, its months and its largest month in that currency', () => {
    expect(monthLabel('2026-01')).toBe('Jan 2026');
    expect(describeSeries(seriesOf(summary), 'en-GB').replace(/\s/g, ' ')).toBe(
      'Invoice amounts by month of issue. EUR, Nov 2025 to Feb 2026: largest Feb 2026, €200.25. ' +
        'NOK, Jan 2026: largest Jan 2026, NOK 5,000.00.',
    );
    expect(describeSeries([])).toBe('No amounts by month for this search.');
  });
});
