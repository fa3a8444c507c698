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
  // Read character by character, not with a regular expression: the rules read every amount of every line,
  // and a match array, its strings and two BigInts per amount are garbage enough to raise a reader's peak
  // memory on a document of thousands of lines.
  const value = text.trim();
  const negative = value.charCodeAt(0) === MINUS;
  let position = negative || value.charCodeAt(0) === PLUS ? 1 : 0;
  const integerStart = position;
  while (isDigit(value.charCodeAt(position))) position += 1;
  const integerEnd = position;
  let fractionStart = position;
  if (value.charCodeAt(position) === DOT) {
    fractionStart = position + 1;
    position = fractionStart;
    while (isDigit(value.charCodeAt(position))) position += 1;
  }
  if (position !== value.length || (integerEnd === integerStart && position === fractionStart)) return null;
  const integerDigits = integerEnd - integerStart;
  let fraction = 0;
  for (let place = 0; place < PLACES; place += 1)
    fraction = fraction * 10 + (fractionStart + place < position ? value.charCodeAt(fractionStart + place) - ZERO : 0);
  let magnitude: Decimal;
  if (integerDigits <= SAFE_INTEGER_DIGITS) {
    let integer = 0;
    for (let index = integerStart; index < integerEnd; index += 1)
      integer = integer * 10 + value.charCodeAt(index) - ZERO;
    // Below 10^15, so exact as a double.
    magnitude = BigInt(integer * Number(SCALE) + fraction);
  } else magnitude = BigInt(value.slice(integerStart, integerEnd)) * SCALE + BigInt(fraction);
  return negative ? -magnitude : magnitude;
}

const [PLUS, MINUS, DOT, ZERO] = ['+', '-', '.', '0'].map((character) => character.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
];
/** Integer digits whose millionths a double still holds exactly. */
const SAFE_INTEGER_DIGITS = 9;
const isDigit = (code: number) => code >= ZERO && code <= ZERO + 9;

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
