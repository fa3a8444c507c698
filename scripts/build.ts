/**
 * `npm run build`: the SPA (`vite build` in apps/web) and then the API server and the CLI as JavaScript in
 * apps/api/dist (see compileApi), both under one release (package version + git revision,
 * scripts/lib/release.ts): compiled into the API and written beside its bundles as release.json, and handed to
 * the SPA's build as PORTAL_RELEASE, under which the Sentry Vite plugin uploads the SPA's source maps when
 * SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT are set (apps/web/build/sentry-source-maps.ts). Last, the
 * release's CycloneDX SBOMs of the API and the SPA in apps/api/dist/sbom (scripts/lib/sbom.ts), so the image
 * carries them and the release workflow publishes and attests them.
 */
import { spawnSync } from 'node:child_process';
import { compileApi, REPO_ROOT } from '@portal/dev-stack';
import { releaseName } from '@portal/contract';
import { currentRelease } from './lib/release.ts';
import { SBOM_DIR, writeReleaseSboms } from './lib/sbom.ts';

const release = currentRelease();
const name = releaseName(release);
const web = spawnSync('npm', ['run', 'build', '-w', 'apps/web', '--silent'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: { ...process.env, PORTAL_RELEASE: name },
});
if (web.status !== 0) process.exit(web.status ?? 1);
await compileApi({ release: { ...release, release: name } });
await writeReleaseSboms(SBOM_DIR);
