/**
 * The locale the portal's renderings write money in. A rendering is made once, when the invoice arrives, and
 * read by whoever opens it, so it cannot follow each reader's browser as the screens do; it writes money as it
 * writes dates, the British way (`15 Nov 2024`, `€2,388.53`), which every reader of an English page reads.
 */
export const RENDERING_LOCALE = 'en-GB';

/**
 * An amount as money in the invoice's currency (`€2,388.53`, `NOK 1,250.00`), every decimal the invoice wrote
 * kept: the decimal string is formatted as it is, never through a float. `canShow` says whether the text can
 * be drawn (the PDF's standard fonts lack `₹` or `₺`): when not, the currency's code stands for its symbol
 * (`INR 1,250.00`). Without a currency, or with one Intl does not know, the amount as written and its code.
 */
export function moneyText(
  amount: string | null,
  currency: string | null,
  canShow: (text: string) => boolean = () => true,
): string {
  if (amount === null) return '\u2014';
  if (!currency) return amount;
  const decimals = Math.min(Math.max(amount.split('.')[1]?.length ?? 0, 2), 20);
  const format = (currencyDisplay: 'symbol' | 'code') =>
    new Intl.NumberFormat(RENDERING_LOCALE, {
      style: 'currency',
      currency,
      currencyDisplay,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      // A decimal string is formatted exactly (Intl.NumberFormat v3); typed as a number by older lib files.
    }).format(amount.trim() as unknown as number);
  try {
    if (!/^[+-]?\d+(\.\d+)?$/.test(amount.trim())) return `${amount} ${currency}`;
    const symbol = format('symbol');
    return canShow(symbol) ? symbol : format('code');
  } catch {
    return `${amount} ${currency}`;
  }
}
