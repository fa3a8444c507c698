/**
 * Amounts as exact decimals: a BigInt of millionths. EN 16931 amounts carry at most two decimals and rates a
 * few more, so six places hold every sum and product the rules compute without a float's rounding.
 */
export type Decimal = bigint;

const SCALE = 1_000_000n;
const PLACES = 6;

/** The decimal a text states, or null when it is no xsd:decimal (a rule then reads it as absent). */
export function decimalOf(text: string | null | undefined): Decimal | null {
  if (text == null) return null;
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] === '' && !match[3])) return null;
  const fraction = (match[3] ?? '').slice(0, PLACES).padEnd(PLACES, '0');
  const value = BigInt(match[2] || '0') * SCALE + BigInt(fraction);
  return match[1] === '-' ? -value : value;
}

export const sum = (values: (Decimal | null)[]): Decimal =>
  values.reduce<bigint>((total, value) => total + (value ?? 0n), 0n);

/** Rounded half away from zero to two decimals, as the standard rounds tax amounts. */
export function roundToCents(value: Decimal): Decimal {
  const cent = SCALE / 100n;
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const rounded = ((magnitude + cent / 2n) / cent) * cent;
  return negative ? -rounded : rounded;
}

/** taxable × rate / 100, rounded to cents. */
export const taxOf = (taxable: Decimal, rate: Decimal): Decimal => roundToCents((taxable * rate) / (100n * SCALE));

export const ONE_CENT: Decimal = SCALE / 100n;

export const abs = (value: Decimal): Decimal => (value < 0n ? -value : value);

export function decimalText(value: Decimal): string {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const whole = magnitude / SCALE;
  const fraction = (magnitude % SCALE).toString().padStart(PLACES, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
