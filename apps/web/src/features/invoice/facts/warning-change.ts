import type { InvoiceGuardedTerms, InvoiceWarning } from '@portal/contract';

/** A decimal string as an integer of `scale` decimals, exact (no float): "1453.7" at 2 is 145370n. */
function scaled(amount: string, scale: number): bigint | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
  return sign ? -digits : digits;
}

const decimalsOf = (amount: string) => amount.split('.')[1]?.length ?? 0;

/** `difference` as a decimal string again, with `scale` decimals. */
function unscaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

export interface AmountChange {
  /** The new amount less the old, a decimal string, negative when it went down. */
  difference: string;
  /** How many times the old amount the new one is (2 = doubled); null when the old one was nothing. */
  ratio: number | null;
  /**
   * Doubled or more, or halved or less: the kind of change a mistyped or forged amount makes (a digit added,
   * a decimal point moved), stressed so it is not read as one more correction.
   */
  large: boolean;
}

/** What an amount change amounts to, in one currency; null when either side has no amount or they differ in currency. */
export function amountChangeOf(before: InvoiceGuardedTerms, after: InvoiceGuardedTerms): AmountChange | null {
  if (before.amount === null || after.amount === null || before.currency !== after.currency) return null;
  const scale = Math.max(decimalsOf(before.amount), decimalsOf(after.amount));
  const old = scaled(before.amount, scale);
  const now = scaled(after.amount, scale);
  if (old === null || now === null || old === now) return null;
  const ratio = old === 0n ? null : Number(now) / Number(old);
  const large = ratio === null || ratio >= 2 || ratio <= 0.5;
  return { difference: unscaled(now - old, scale), ratio, large };
}

/**
 * The one change a reader has to judge: from what the earliest waiting warning compared against to what the
 * latest one found. Two warnings raised by successive versions (a new account, then a new amount) are one
 * story to the person about to pay; told twice, the second Was/Now block hid the first's.
 */
export function combinedChange(warnings: readonly InvoiceWarning[]) {
  const changes = warnings.flatMap((warning) => (warning.change ? [warning.change] : []));
  const first = changes[0];
  const last = changes.at(-1);
  return first && last ? { before: first.before, after: last.after } : null;
}
