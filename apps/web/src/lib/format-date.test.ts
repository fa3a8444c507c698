import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format-date';

describe('formatDateTime', () => {
  it('writes day, month word, year and a 24-hour time', () => {
    // Built from local parts, so the test holds in any time zone the machine is in.
    expect(formatDateTime(new Date(2026, 10, 23, 15, 16, 20))).toBe('23 Nov 2026, 15:16');
    expect(formatDateTime(new Date(2026, 0, 5, 0, 7))).toBe('5 Jan 2026, 00:07');
  });

  it('drops the time for a day on its own', () => {
    expect(formatDate(new Date(2026, 10, 23, 15, 16))).toBe('23 Nov 2026');
  });
});
