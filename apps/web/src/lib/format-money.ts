/**
 * An amount as the reader's locale writes money ("€1,453.76" in en-GB, "1.453,76 €" in de-DE), every decimal the
 * invoice wrote kept: the amount is formatted from its decimal string, never rounded through a float. Without a
 * currency, or with a code the browser does not know, the amount as written with the code after it.
 */
export function formatMoney(amount: string | null, currency: string | null, locale?: string): string | null {
  if (amount === null) return null;
  if (!currency) return amount;
  const decimals = amount.split('.')[1]?.length ?? 0;
  try {
    const format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: Math.min(Math.max(decimals, 2), 20),
      maximumFractionDigits: Math.min(Math.max(decimals, 2), 20),
    });
    // A decimal string is formatted exactly (Intl.NumberFormat v3); typed as a number by older lib files.
    return format.format(amount as unknown as number);
  } catch {
    return `${amount} ${currency}`;
  }
}
