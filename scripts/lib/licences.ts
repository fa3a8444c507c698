/**
 * Which licences production may carry (decision 81), read from the allow-list in scripts/allowed-licences.json,
 * and the verdict on each package the SBOMs list with the licence the generator recorded for it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';

export const ALLOWED_LICENCES_FILE = path.join(REPO_ROOT, 'scripts/allowed-licences.json');

/** The SPDX identifiers of the allow-list file. */
export function allowedLicences(file = ALLOWED_LICENCES_FILE): Set<string> {
  const { allowed } = JSON.parse(readFileSync(file, 'utf8')) as { allowed?: unknown };
  if (!Array.isArray(allowed) || allowed.length === 0 || !allowed.every((id) => typeof id === 'string'))
    throw new Error(`${file}: "allowed" must be a list of SPDX licence identifiers`);
  return new Set(allowed as string[]);
}

/** Licences that are named outright as refused, so a failure says why rather than just "not allowed". */
const SOURCE_AVAILABLE = /(^|[\s(])(FSL|BUSL|SSPL|Elastic|Commons-Clause|PolyForm)|Commons Clause/i;

/**
 * Whether an SPDX expression is allowed: one branch of each OR and every part of each AND must be on the list.
 */
export function licenceVerdict(
  expression: string | undefined,
  allowed: Set<string> = allowedLicences(),
): { allowed: boolean; reason: string } {
  if (!expression) return { allowed: false, reason: 'no licence declared' };
  if (SOURCE_AVAILABLE.test(expression)) return { allowed: false, reason: `source-available licence ${expression}` };
  const holds = (text: string): boolean => {
    const trimmed = text
      .trim()
      .replace(/^\((.*)\)$/, '$1')
      .trim();
    const orParts = splitTop(trimmed, 'OR');
    if (orParts.length > 1) return orParts.some(holds);
    const andParts = splitTop(trimmed, 'AND');
    if (andParts.length > 1) return andParts.every(holds);
    // "MIT WITH exception" is MIT with more permission.
    const id = trimmed.replace(/\s+WITH\s+.*$/, '').replace(/\+$/, '');
    return allowed.has(id);
  };
  return holds(expression)
    ? { allowed: true, reason: expression }
    : { allowed: false, reason: `licence ${expression} is not on the allow-list` };
}

/** Splits at `operator` outside parentheses. */
function splitTop(text: string, operator: 'AND' | 'OR'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  const tokens = text.split(/(\(|\)|\s+)/);
  let offset = 0;
  for (const token of tokens) {
    if (token === '(') depth += 1;
    else if (token === ')') depth -= 1;
    else if (depth === 0 && token === operator) {
      parts.push(text.slice(start, offset));
      start = offset + token.length;
    }
    offset += token.length;
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

export interface LicensedPackage {
  name: string;
  version: string;
  licence: string | undefined;
}

/** Every package whose licence production may not carry, with the reason. */
export function refusedPackages(packages: LicensedPackage[], allowed: Set<string> = allowedLicences()): string[] {
  return packages.flatMap((pkg) => {
    const verdict = licenceVerdict(pkg.licence, allowed);
    return verdict.allowed ? [] : [`${pkg.name}@${pkg.version}: ${verdict.reason}`];
  });
}

/** A table of licence → packages, for a log and a review. */
export function licenceTable(packages: LicensedPackage[]): string {
  const byLicence = new Map<string, string[]>();
  for (const pkg of packages) {
    const key = pkg.licence ?? '(none)';
    byLicence.set(key, [...(byLicence.get(key) ?? []), `${pkg.name}@${pkg.version}`]);
  }
  return [...byLicence]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(
      ([licence, names]) =>
        `${String(names.length).padStart(4)}  ${licence}${names.length <= 3 ? `  (${names.join(', ')})` : ''}`,
    )
    .join('\n');
}
