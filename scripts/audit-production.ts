/**
 * `npm run audit:prod [sbom-folder] [--grype-config <file>]`: the vulnerability scan of what production carries
 * (decision 118). Asks npm's advisory database (`npm audit`) about the whole tree, keeps the packages the
 * release's SBOMs list (default apps/api/dist/sbom, as `npm run build` or `npm run sbom` writes them), and fails
 * on a high or critical advisory not in scripts/accepted-advisories.json, or on an accepted entry past its expiry.
 * `--grype-config` also writes the entries in force as Grype ignore rules for the release workflow's image scan.
 * Exit 1: findings or an expired entry; exit 2: the advisory database could not be asked (no scan happened).
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  auditVerdict,
  describeFinding,
  grypeIgnoreConfig,
  parseAuditOutput,
  productionFindings,
  productionPaths,
  readAcceptedAdvisories,
  runNpmAudit,
} from './lib/production-audit.ts';
import { readReleaseSboms, SBOM_DIR, sbomFile } from './lib/sbom.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'grype-config': { type: 'string' }, registry: { type: 'string' } },
});
const sbomDir = positionals[0] ? path.resolve(positionals[0]) : SBOM_DIR;
if (!existsSync(sbomFile(sbomDir, 'api')) || !existsSync(sbomFile(sbomDir, 'web'))) {
  console.error(`No SBOMs in ${sbomDir}: run \`npm run sbom\` (or \`npm run build\`) first, or name their folder.`);
  process.exit(2);
}
const today = new Date().toISOString().slice(0, 10);
const acceptedList = readAcceptedAdvisories();
if (values['grype-config']) {
  writeFileSync(values['grype-config'], grypeIgnoreConfig(acceptedList, today));
  console.log(`${values['grype-config']}: the accepted advisories in force, as Grype ignore rules`);
}

const boms = await readReleaseSboms(sbomDir);
const production = productionPaths([boms.api, boms.web]);
const outcome = parseAuditOutput(runNpmAudit(values.registry));
if ('unavailable' in outcome) {
  console.error(`No vulnerability scan: ${outcome.unavailable}`);
  process.exit(2);
}
const verdict = auditVerdict(productionFindings(outcome.report, production), acceptedList, today);
console.log(`npm audit of the ${production.size} package folders production carries (${sbomDir}):`);
for (const { finding, entry } of verdict.accepted)
  console.log(`accepted until ${entry.expires}: ${describeFinding(finding)} — ${entry.reason}`);
for (const finding of verdict.reported) console.log(`below high: ${describeFinding(finding)}`);
for (const entry of verdict.unused)
  console.log(
    `accepted but no longer found (remove it): ${entry.advisory}${entry.package ? ` in ${entry.package}` : ''}`,
  );
for (const entry of verdict.expired)
  console.error(
    `expired on ${entry.expires}: the acceptance of ${entry.advisory}${entry.package ? ` in ${entry.package}` : ''}; fix the dependency, or renew the entry with a new reason`,
  );
for (const finding of verdict.failing) console.error(`not accepted: ${describeFinding(finding)}`);
if (verdict.failing.length > 0 || verdict.expired.length > 0) process.exit(1);
console.log('no high or critical advisory in production that is not accepted');
