/**
 * The vulnerability scan of what production carries (decision 118): npm's own audit of the whole tree, held to
 * the packages the release's SBOMs list (the production install, the packages compiled into the API and those
 * in the SPA's bundle), failing on a high or critical advisory that the accepted list does not cover, and on an
 * accepted advisory whose expiry has passed. The parts below are pure, so recorded audit output tests them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';
import { stringify } from 'yaml';
import type { Sbom } from './sbom.ts';

export const ACCEPTED_ADVISORIES_FILE = path.join(REPO_ROOT, 'scripts/accepted-advisories.json');

export const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** Advisories at or above this fail the scan unless accepted. */
export const FAILING_SEVERITY: Severity = 'high';

/** The part of `npm audit --json` (auditReportVersion 2) read here. */
interface AuditReport {
  auditReportVersion: 2;
  vulnerabilities: Record<
    string,
    {
      name: string;
      severity: Severity;
      /** An advisory of the package itself (an object), or the name of a vulnerable dependency (a string). */
      via: (string | { source: number; name: string; title: string; url: string; severity: Severity; range: string })[];
      nodes: string[];
    }
  >;
}

export interface Finding {
  /** GHSA id (from the advisory's address), else npm's number. */
  advisory: string;
  severity: Severity;
  package: string;
  title: string;
  url: string;
  /** Where production carries the vulnerable package (node_modules paths). */
  paths: string[];
}

export interface AcceptedAdvisory {
  advisory: string;
  /** Only for this package, when given. */
  package?: string;
  reason: string;
  /** The last day the acceptance holds (YYYY-MM-DD); after it the scan fails until the entry is renewed or gone. */
  expires: string;
}

/**
 * `npm audit --json`'s output: the report, or why npm could not give one (the advisory endpoint refused or
 * could not be reached), in npm's words.
 */
export function parseAuditOutput(stdout: string): { report: AuditReport } | { unavailable: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return { unavailable: `npm audit wrote no JSON: ${stdout.trim().slice(0, 300) || '(nothing)'}` };
  }
  const output = parsed as Partial<AuditReport> & { message?: string };
  if (output.auditReportVersion === 2 && output.vulnerabilities && typeof output.vulnerabilities === 'object')
    return { report: output as AuditReport };
  return {
    unavailable: output.message
      ? `the advisory database could not be asked: ${output.message}`
      : `npm audit answered no report (auditReportVersion ${String(output.auditReportVersion)})`,
  };
}

/** Where the SBOMs' packages are installed in the tree npm audits (the generator's `cdx:npm:package:path`). */
export function productionPaths(boms: Sbom[]): Set<string> {
  const paths = new Set<string>();
  for (const component of boms.flatMap((bom) => bom.components ?? [])) {
    const value = (component as { properties?: { name: string; value: string }[] }).properties?.find(
      (property) => property.name === 'cdx:npm:package:path',
    )?.value;
    if (value) paths.add(value);
  }
  return paths;
}

function advisoryId(url: string, source: number): string {
  return /GHSA(-[0-9a-z]{4}){3}/i.exec(url)?.[0] ?? `npm-${source}`;
}

/**
 * The advisories of packages production carries, one per advisory and package. A package that is vulnerable
 * only through a dependency is not listed again: the dependency's own entry carries the advisory.
 */
export function productionFindings(report: AuditReport, production: Set<string>): Finding[] {
  const findings: Finding[] = [];
  for (const vulnerability of Object.values(report.vulnerabilities)) {
    const paths = vulnerability.nodes.filter((node) => production.has(node));
    if (paths.length === 0) continue;
    for (const via of vulnerability.via) {
      if (typeof via === 'string') continue;
      findings.push({
        advisory: advisoryId(via.url, via.source),
        severity: via.severity,
        package: vulnerability.name,
        title: via.title,
        url: via.url,
        paths,
      });
    }
  }
  return findings.sort(
    (a, b) =>
      SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity) ||
      a.package.localeCompare(b.package) ||
      a.advisory.localeCompare(b.advisory),
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ADVISORY = /^(GHSA(-[0-9a-z]{4}){3}|CVE-\d{4}-\d{4,})$/;

/** The accepted list, each entry checked: an advisory id, a reason, an expiry date. */
export function readAcceptedAdvisories(file = ACCEPTED_ADVISORIES_FILE): AcceptedAdvisory[] {
  const { accepted } = JSON.parse(readFileSync(file, 'utf8')) as { accepted?: unknown };
  if (!Array.isArray(accepted)) throw new Error(`${file}: "accepted" must be a list`);
  return accepted.map((entry: Partial<AcceptedAdvisory>, index) => {
    const where = `${file}: accepted[${index}]`;
    if (typeof entry.advisory !== 'string' || !ADVISORY.test(entry.advisory))
      throw new Error(`${where}: "advisory" must be a GHSA or CVE id`);
    if (typeof entry.reason !== 'string' || entry.reason.trim().length < 10)
      throw new Error(`${where} (${entry.advisory}): "reason" must say why the advisory does not reach the portal`);
    if (
      typeof entry.expires !== 'string' ||
      !DATE.test(entry.expires) ||
      Number.isNaN(Date.parse(`${entry.expires}T00:00:00Z`)) ||
      new Date(`${entry.expires}T00:00:00Z`).toISOString().slice(0, 10) !== entry.expires
    )
      throw new Error(`${where} (${entry.advisory}): "expires" must be a date, YYYY-MM-DD`);
    if (entry.package !== undefined && typeof entry.package !== 'string')
      throw new Error(`${where} (${entry.advisory}): "package" must be a package name`);
    return { advisory: entry.advisory, package: entry.package, reason: entry.reason, expires: entry.expires };
  });
}

export interface Verdict {
  /** High or critical, not accepted: the scan fails. */
  failing: Finding[];
  /** Covered by an accepted entry still in force. */
  accepted: { finding: Finding; entry: AcceptedAdvisory }[];
  /** Below the failing severity: reported only. */
  reported: Finding[];
  /** Accepted entries whose expiry has passed: the scan fails until each is renewed or removed. */
  expired: AcceptedAdvisory[];
  /** Entries in force that no finding needed: reported, to be removed. */
  unused: AcceptedAdvisory[];
}

const covers = (entry: AcceptedAdvisory, finding: Finding) =>
  entry.advisory.toLowerCase() === finding.advisory.toLowerCase() &&
  (entry.package === undefined || entry.package === finding.package);

/** The scan's verdict on `today` (YYYY-MM-DD, UTC). */
export function auditVerdict(findings: Finding[], acceptedList: AcceptedAdvisory[], today: string): Verdict {
  const inForce = acceptedList.filter((entry) => entry.expires >= today);
  const verdict: Verdict = {
    failing: [],
    accepted: [],
    reported: [],
    expired: acceptedList.filter((entry) => entry.expires < today),
    unused: [],
  };
  for (const finding of findings) {
    const entry = inForce.find((candidate) => covers(candidate, finding));
    if (entry) verdict.accepted.push({ finding, entry });
    else if (SEVERITIES.indexOf(finding.severity) >= SEVERITIES.indexOf(FAILING_SEVERITY))
      verdict.failing.push(finding);
    else verdict.reported.push(finding);
  }
  verdict.unused = inForce.filter((entry) => !findings.some((finding) => covers(entry, finding)));
  return verdict;
}

export const describeFinding = (finding: Finding) =>
  `${finding.severity} ${finding.advisory} in ${finding.package} (${finding.paths.join(', ')}): ${finding.title} ${finding.url}`;

/**
 * Runs `npm audit --json` on the repository's whole tree (production is picked out afterwards, by the SBOMs).
 * `registry` points it elsewhere (a mirror that serves npm's advisory endpoint).
 */
export function runNpmAudit(registry?: string): string {
  const run = spawnSync('npm', ['audit', '--json', ...(registry ? ['--registry', registry] : [])], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return run.stdout;
}

/**
 * The accepted advisories still in force as Grype ignore rules (its `.grype.yaml`), so the image scan of the
 * release workflow accepts what this list accepts, for as long: an expired entry is left out, and fails here.
 */
export function grypeIgnoreConfig(acceptedList: AcceptedAdvisory[], today: string): string {
  const ignore = acceptedList
    .filter((entry) => entry.expires >= today)
    .map((entry) => ({
      vulnerability: entry.advisory,
      ...(entry.package ? { package: { name: entry.package } } : {}),
    }));
  return `# Written by \`npm run audit:prod\` from scripts/accepted-advisories.json on ${today}.\n${stringify({ ignore })}`;
}
