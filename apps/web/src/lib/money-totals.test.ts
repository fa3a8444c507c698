import { describe, expect, it } from 'vitest';
import { totalsByCurrency } from './money-totals';

describe('totalsByCurrency', () => {
  it('sums each currency apart, exactly, and leaves out amounts without a currency', () => {
    expect(
      totalsByCurrency([
        { amount: '0.10', currency: 'EUR' },
        { amount: '0.2', currency: 'EUR' },
        { amount: '1000', currency: 'NOK' },
        { amount: '-0.305', currency: 'EUR' },
        { amount: '5.00', currency: null },
        { amount: null, currency: 'EUR' },
      ]),
    ).toEqual([
      { currency: 'EUR', total: '-0.005', count: 3 },
      { currency: 'NOK', total: '1000.00', count: 1 },
    ]);
  });
});
