/** One currency's sum: exact, from the decimal strings, never through floats. */
export interface CurrencyTotal {
  currency: string;
  total: string;
  count: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Sums amounts per currency, in the order the currencies first appear. Amounts without a currency or
 * unreadable are left out: a sum across currencies, or with a guessed one, would say something false.
 */
export function totalsByCurrency(
  entries: readonly { amount: string | null; currency: string | null }[],
): CurrencyTotal[] {
  const sums = new Map<string, { units: bigint; scale: number; count: number }>();
  for (const { amount, currency } of entries) {
    const match = amount === null || !currency ? null : DECIMAL.exec(amount.trim());
    if (!match || !currency) continue;
    const [, sign, whole, fraction = ''] = match;
    const sum = sums.get(currency) ?? { units: 0n, scale: 2, count: 0 };
    const scale = Math.max(sum.scale, fraction.length);
    const units = BigInt(`${whole}${fraction.padEnd(scale, '0')}`) * (sign ? -1n : 1n);
    sum.units = sum.units * 10n ** BigInt(scale - sum.scale) + units;
    sum.scale = scale;
    sum.count += 1;
    sums.set(currency, sum);
  }
  return [...sums].map(([currency, { units, scale, count }]) => {
    const negative = units < 0n;
    const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
    const total = `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return { currency, total, count };
  });
}
