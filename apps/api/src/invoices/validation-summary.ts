import type { ValidationReport } from './e-invoice/validation/validate.ts';

/** The rules a report's fatal findings break, each once, in the report's order (fatal findings come first). */
export const fatalRulesOf = (report: ValidationReport): string[] => [
  ...new Set(report.findings.filter((finding) => finding.flag === 'fatal').map((finding) => finding.rule)),
];

/**
 * A version's check in one cell of the ZIP's CSV: `valid`, `warnings`, or `invalid: BR-CO-16 BR-S-08` (the
 * fatal rules, so a spreadsheet filter finds every invoice that breaks one); empty when there is no report
 * (a plain PDF, a version stored before the check, or the operator keeps none).
 */
export function validationCell(report: ValidationReport | null | undefined): string | null {
  if (!report) return null;
  return report.status === 'invalid' ? `invalid: ${fatalRulesOf(report).join(' ')}` : report.status;
}

/**
 * A version's check as its history lists it: the outcome, the rules' edition and the rules broken, without
 * the values found (a past version's findings may quote accounts a holder of the code is not shown).
 */
export function versionValidationOf(report: ValidationReport | null | undefined) {
  if (!report) return null;
  return {
    status: report.status,
    rulesVersion: report.rulesVersion,
    findingCount: report.findings.length + report.omittedFindings,
    fatalRules: fatalRulesOf(report),
  };
}
