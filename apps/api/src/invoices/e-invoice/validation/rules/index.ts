import type { Rule } from '../rule.ts';
import { CALCULATION_RULES } from './calculations.ts';
import { CODE_LIST_RULES } from './code-list-rules.ts';
import { CORE_RULES } from './core.ts';
import { DECIMAL_RULES } from './decimals.ts';
import { PEPPOL_RULES } from './peppol.ts';
import { SPLIT_PAYMENT_RULES } from './split-payment.ts';
import { UBL_SYNTAX_RULES } from './ubl-syntax.ts';
import { VAT_CATEGORY_RULES } from './vat-categories.ts';
import { XRECHNUNG_RULES } from './xrechnung.ts';

/**
 * The rules' edition, stored in every report: raise it whenever a rule is added, removed or changes what it
 * finds, so that reports made by an older edition can be told apart and made again.
 */
export const RULES_VERSION = 'en16931-1.2';

/** EN 16931 itself: its business rules, code lists and syntax bindings, which every invoice is held to. */
export const EN16931_RULES: readonly Rule[] = [
  ...CORE_RULES,
  ...CALCULATION_RULES,
  ...VAT_CATEGORY_RULES,
  ...SPLIT_PAYMENT_RULES,
  ...DECIMAL_RULES,
  ...CODE_LIST_RULES,
  ...UBL_SYNTAX_RULES,
];

/** Then the specifications on top of it, each for the invoices that declare it. */
export const RULES: readonly Rule[] = [...EN16931_RULES, ...XRECHNUNG_RULES, ...PEPPOL_RULES];
