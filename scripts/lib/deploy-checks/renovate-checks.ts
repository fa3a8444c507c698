/** renovate.json against Renovate's configuration schema (scripts/lib/renovate-config.ts). */
import { readRenovateConfig, renovateConfigProblems } from '../renovate-config.ts';
import type { Check } from './check.ts';

export function renovateChecks(check: Check) {
  const problems = renovateConfigProblems(readRenovateConfig());
  check(
    problems.length === 0,
    "renovate.json: every option is one of Renovate's configuration schema, each value with choices one of them",
    problems,
  );
}
