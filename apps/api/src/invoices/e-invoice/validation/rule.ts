import type { SemanticInvoice } from './semantic-model.ts';

/** A fatal finding makes the invoice invalid; a warning is worth a look but the invoice stands. */
export type RuleFlag = 'fatal' | 'warning';

/** Where in the invoice a rule found what it reports, and the value it found there (null: nothing written). */
export interface Violation {
  /** Which of a repeated group, for people: `line 3`, `VAT breakdown S 19`. Absent for the document itself. */
  at?: string;
  value?: string | null;
}

export interface Rule {
  /** The standard's identifier: BR-01, BR-CO-10, BR-S-08, BR-CL-04 … */
  id: string;
  flag: RuleFlag;
  /** The business term or group the rule is about, as the standard numbers it (`BT-24`, `BG-23/BT-117`). */
  element: string;
  /** The standard's own wording of the rule. */
  message: string;
  /** What it means for whoever books the invoice, for the rules that fire most. */
  plain?: string;
  check(invoice: SemanticInvoice): Violation[];
}

/** One violation when the condition holds, none otherwise. */
export const violatedIf = (condition: boolean, violation: Violation = {}): Violation[] =>
  condition ? [violation] : [];

/** A violation for each entry of a repeated group the test fails on, named by its position. */
export function eachOf<T>(
  entries: T[],
  name: (entry: T, index: number) => string,
  fails: (entry: T) => boolean,
  value?: (entry: T) => string | null,
): Violation[] {
  const violations: Violation[] = [];
  entries.forEach((entry, index) => {
    if (fails(entry)) violations.push({ at: name(entry, index), ...(value ? { value: value(entry) } : {}) });
  });
  return violations;
}

export const lineName = (line: { id: string | null }, index: number) => `line ${line.id ?? index + 1}`;

/**
 * Rules of a specification built on EN 16931 (a CIUS such as XRechnung, Peppol BIS Billing 3): they hold only
 * for an invoice that declares it, so each finds nothing in any other.
 */
export const onlyFor = (declares: (invoice: SemanticInvoice) => boolean, rules: Rule[]): Rule[] =>
  rules.map((rule) => ({ ...rule, check: (invoice) => (declares(invoice) ? rule.check(invoice) : []) }));

/** A term the rule requires, absent or blank. */
export const blank = (value: string | null | undefined) => value == null || value.trim() === '';
