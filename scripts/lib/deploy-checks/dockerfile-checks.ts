/**
 * The Dockerfile against the portal's rules for its images, beside dockerfile-utils' own validation: what the
 * image must do (Node 24 slim, non-root, runtime folder from the one script, exec-form Node as PID 1, health
 * check, labels from the build arguments) is checked here, since no container can be built on CI's machine.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';
import { DOCKERFILE, lintDockerfile, readDockerfile, stageNamed, type Stage } from '../dockerfile.ts';
import type { Check } from './check.ts';

/** A base image as Renovate's pinDigests writes it: the tag for people, the digest for the registry. */
export const DIGEST_PINNED = /^[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}$/;

const nonRoot = (user: string | undefined) => !!user && !/^(0|root)(:|$)/.test(user);

function labelsFromBuildArguments(stage: Stage) {
  return (
    stage.labels['org.opencontainers.image.version'] === '${PORTAL_VERSION}' &&
    stage.labels['org.opencontainers.image.revision'] === '${PORTAL_REVISION}' &&
    stage.args.includes('PORTAL_VERSION') &&
    stage.args.includes('PORTAL_REVISION')
  );
}

export function dockerfileChecks(check: Check) {
  const text = readFileSync(DOCKERFILE, 'utf8');
  const problems = lintDockerfile(text);
  check(problems.length === 0, 'Dockerfile: dockerfile-utils finds nothing to report', problems);

  const stages = readDockerfile(text);
  const build = stageNamed(stages, 'build');
  const runtime = stageNamed(stages, 'runtime');
  const proxy = stageNamed(stages, 'proxy');
  check(
    /^node:24-[a-z]+-slim@/.test(runtime.image) && build.image === runtime.image,
    `Dockerfile: build and runtime on the same Node 24 slim image (${runtime.image})`,
  );
  const unpinned = stages.map((stage) => stage.image).filter((image) => !DIGEST_PINNED.test(image));
  check(
    unpinned.length === 0,
    'Dockerfile: every base image is pinned by tag and digest (name:tag@sha256:<64 hex digits>), as Renovate keeps it',
    unpinned,
  );
  const decisionLinks = [...text.matchAll(/docs\/decisions\/[\w.-]+\.md/g)].map((match) => match[0]);
  const missingDecisions = decisionLinks.filter((link) => !existsSync(path.join(REPO_ROOT, link)));
  check(
    decisionLinks.length > 0 && missingDecisions.length === 0,
    'Dockerfile: every decision it links to exists',
    missingDecisions,
  );
  check(
    build.runs.some((run) => /npm ci --ignore-scripts/.test(run)) &&
      build.runs.some((run) =>
        /npm run build && npx tsx scripts\/build-runtime\.ts \/runtime\b/.test(run.replace(/\s+/g, ' ')),
      ),
    'Dockerfile: the build stage installs without install scripts, builds, and assembles /runtime with scripts/build-runtime.ts',
  );
  check(
    runtime.copies.includes('--from=build /runtime /app') && runtime.workdir === '/app',
    'Dockerfile: the runtime stage is the runtime folder at /app and nothing else from the build',
  );
  check(
    nonRoot(runtime.user) && /^\d+:\d+$/.test(runtime.user ?? ''),
    `Dockerfile: the runtime runs as a numeric non-root user (${runtime.user}), so runAsNonRoot can verify it`,
  );
  const command = [...(runtime.entrypoint ?? []), ...(runtime.cmd ?? [])];
  check(
    runtime.entrypoint?.[0] === 'node' && runtime.cmd?.join(' ') === 'apps/api/dist/server.js',
    `Dockerfile: ENTRYPOINT and CMD in exec form start Node itself, no npm or shell (${command.join(' ')})`,
  );
  const healthcheck = runtime.healthcheck?.command ?? [];
  check(
    healthcheck[0] === 'node' && healthcheck.some((part) => part.includes('/api/healthz')),
    'Dockerfile: HEALTHCHECK in exec form asks /api/healthz',
  );
  check(
    runtime.env.NODE_ENV === 'production' &&
      runtime.env.DATA_DIR === '/data' &&
      runtime.env.INVOICE_DIR?.startsWith('/data/') === true,
    'Dockerfile: production mode, data (the invoice store) under /data',
  );
  check(
    text.includes('VOLUME ["/data"]') && text.includes('chown -R 1000:0 /data') && text.includes('chmod -R g=u /data'),
    'Dockerfile: /data is a volume the image user, or any user of group 0 (OpenShift), may write',
  );
  check(
    labelsFromBuildArguments(runtime) && labelsFromBuildArguments(proxy),
    'Dockerfile: OCI version and revision labels come from the build arguments',
  );
  check(
    nonRoot(proxy.user) && proxy.stopSignal === 'SIGQUIT' && proxy.entrypoint?.length === 1,
    'Dockerfile: the proxy runs nginx as a non-root user, in exec form, stopped gracefully (SIGQUIT)',
  );

  const ignored = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
  const missing = ['**/node_modules', '**/dist', '.git', '.env', '.data'].filter((entry) => !ignored.includes(entry));
  check(
    missing.length === 0,
    '.dockerignore keeps installed packages, build output, git history, secrets and data out of the build context',
    missing,
  );
}
