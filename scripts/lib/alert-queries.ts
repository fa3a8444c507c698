/**
 * What `npm run test:alerts` reads in the alert rules' and the dashboard's PromQL: the grouping clauses that
 * would sum or compare two installations together, and the anchors a runbook link may point at.
 */

export interface RuleWithAnnotations {
  alert?: string;
  expr: string;
  annotations?: Record<string, string>;
}

/**
 * The `by (…)` and `on (…)` clauses of `expr` that drop `namespace`, or (with `environment`) `environment`:
 * each would merge the series of several installations.
 */
export function unkeptInstallationLabels(expr: string, options: { environment: boolean }): string[] {
  return [...expr.matchAll(/\b(by|on)\s*\(([^)]*)\)/g)]
    .filter((match) => {
      const labels = match[2]!.split(',').map((label) => label.trim());
      return !labels.includes('namespace') || (options.environment && !labels.includes('environment'));
    })
    .map((match) => match[0]);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
