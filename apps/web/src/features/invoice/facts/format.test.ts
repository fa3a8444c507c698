import { describe, expect, it } from 'vitest';
import { formatMoney } from './format';

// Intl writes a narrow no-break space in some locales; compared with plain spaces.
const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney', () => {
  it("writes money as the reader's locale does", () => {
    expect(formatMoney('1453.76', 'EUR', 'en-GB')).toBe('€1,453.76');
    expect(plain(formatMoney('1453.76', 'EUR', 'de-DE'))).toBe('1.453,76 €');
    expect(formatMoney('1453.76', 'GBP', 'en-GB')).toBe('£1,453.76');
  });

  it('keeps every decimal the invoice wrote, and never rounds through a float', () => {
    expect(formatMoney('0.125', 'EUR', 'en-GB')).toBe('€0.125');
    expect(formatMoney('12345678901234567.89', 'EUR', 'en-GB')).toBe('€12,345,678,901,234,567.89');
    expect(formatMoney('10', 'EUR', 'en-GB')).toBe('€10.00');
    expect(formatMoney('-42.50', 'EUR', 'en-GB')).toBe('-€42.50');
  });

  it('falls back to the amount as written where there is no usable currency', () => {
    expect(formatMoney(null, 'EUR', 'en-GB')).toBeNull();
    expect(formatMoney('12.00', null, 'en-GB')).toBe('12.00');
    expect(formatMoney('12.00', 'NOT A CODE', 'en-GB')).toBe('12.00 NOT A CODE');
  });
});
