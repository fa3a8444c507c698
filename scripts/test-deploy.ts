/**
 * `npm run test:deploy` (part of `npm test`): what can be proven here about the container images, compose and
 * the Kubernetes manifests without a container runtime or a cluster (docs/decisions/0030 says what can't).
 * The Dockerfile is linted and held to the image rules; the proxy image's nginx configuration is tested and
 * served with this machine's Debian nginx; compose is linted against the Compose Specification; every
 * Kubernetes object is validated against the API's published schemas, and the guide's kubectl commands are
 * replayed subset by subset; every migration belongs to a release (deploy/releases.json); the release workflow is validated and held to
 * decision 0113; renovate.json is held to Renovate's configuration schema. Needs nginx with its
 * brotli module (like `npm run test:topology`). The runtime image's content and behaviour: `npm run test:production`.
 */
import { createCheck } from './lib/deploy-checks/check.ts';
import { composeChecks } from './lib/deploy-checks/compose-checks.ts';
import { dockerfileChecks } from './lib/deploy-checks/dockerfile-checks.ts';
import { guideChecks } from './lib/deploy-checks/guide-checks.ts';
import { kubernetesChecks } from './lib/deploy-checks/kubernetes-checks.ts';
import { nginxChecks } from './lib/deploy-checks/nginx-checks.ts';
import { releaseChecks } from './lib/deploy-checks/release-checks.ts';
import { renovateChecks } from './lib/deploy-checks/renovate-checks.ts';
import { workflowChecks } from './lib/deploy-checks/workflow-checks.ts';

const { check, counts } = createCheck();
dockerfileChecks(check);
await nginxChecks(check);
await composeChecks(check);
await kubernetesChecks(check);
guideChecks(check);
releaseChecks(check);
await workflowChecks(check);
renovateChecks(check);
console.log(`\ndeploy checks: ${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed === 0 ? 0 : 1);
