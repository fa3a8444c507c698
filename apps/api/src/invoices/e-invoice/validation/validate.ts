import { isCiiRoot } from '../cii.ts';
import { isUblRoot } from '../ubl.ts';
import type { XmlElement } from '../xml-tree.ts';
import { ciiSemantics } from './cii-semantics.ts';
import type { Rule, RuleFlag } from './rule.ts';
import { RULES, RULES_VERSION } from './rules/index.ts';
import type { SemanticInvoice } from './semantic-model.ts';
import { ublSemantics } from './ubl-semantics.ts';

export interface ValidationFinding {
  rule: string;
  flag: RuleFlag;
  element: string;
  message: string;
  /** A sentence for the clerk, for the rules that fire most. */
  plain: string | null;
  /** Which entry of a repeated group (`line 3`); null for the document itself. */
  at: string | null;
  /** The value found there; null when the term is absent. */
  value: string | null;
}

/** `valid`: no finding; `warnings`: only warnings; `invalid`: at least one fatal finding. */
export type ValidationStatus = 'valid' | 'warnings' | 'invalid';

export interface ValidationReport {
  status: ValidationStatus;
  /** Which edition of the rules made this report, so stored reports can be made again when they change. */
  rulesVersion: string;
  /** At most MAX_STORED_FINDINGS, fatal ones first; the rest are counted. */
  findings: ValidationFinding[];
  omittedFindings: number;
}

/**
 * Findings a report keeps: a file that breaks one rule on each of a hundred thousand lines would otherwise
 * store a report larger than itself. The count of the rest says how many more there are.
 */
export const MAX_STORED_FINDINGS = 100;

/** The EN 16931 terms of a parsed CII or UBL document; null for any other root. */
export function semanticsOf(root: XmlElement): SemanticInvoice | null {
  if (isUblRoot(root)) return ublSemantics(root);
  if (isCiiRoot(root)) return ciiSemantics(root);
  return null;
}

/** Runs the rules over an invoice: every violation of each, in the rules' order. */
export function findingsOf(invoice: SemanticInvoice, rules: readonly Rule[] = RULES): ValidationFinding[] {
  return rules.flatMap((rule) =>
    rule.check(invoice).map((violation) => ({
      rule: rule.id,
      flag: rule.flag,
      element: rule.element,
      message: rule.message,
      plain: rule.plain ?? null,
      at: violation.at ?? null,
      value: violation.value ?? null,
    })),
  );
}

export function reportOf(findings: ValidationFinding[]): ValidationReport {
  const status = findings.some((finding) => finding.flag === 'fatal')
    ? 'invalid'
    : findings.length > 0
      ? 'warnings'
      : 'valid';
  const ordered = [...findings.filter((f) => f.flag === 'fatal'), ...findings.filter((f) => f.flag !== 'fatal')];
  return {
    status,
    rulesVersion: RULES_VERSION,
    findings: ordered.slice(0, MAX_STORED_FINDINGS),
    omittedFindings: Math.max(0, ordered.length - MAX_STORED_FINDINGS),
  };
}

/** Validates a parsed invoice against the EN 16931 business rules. */
export function validateInvoiceXml(root: XmlElement): ValidationReport | null {
  const invoice = semanticsOf(root);
  return invoice && reportOf(findingsOf(invoice));
}
