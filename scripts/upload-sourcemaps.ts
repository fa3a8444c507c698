/**
 * `npm run sourcemaps:upload`, after `npm run build`: sends the SPA's source maps to Sentry under the build's
 * release (apps/api/dist/release.json), so a browser error's stack shows the TypeScript it came from. The
 * maps are never served (apps/web/dist-sourcemaps); each goes up beside the file it maps, as
 * ~/assets/<name>.js, which is how the browser SDK names a frame. The server needs no upload: it runs with
 * --enable-source-maps, so its stack traces already name the TypeScript lines.
 *
 * Needs SENTRY_AUTH_TOKEN (an organization token with release rights), SENTRY_ORG and SENTRY_PROJECT, and
 * SENTRY_URL for a self-hosted Sentry; without them it says so and uploads nothing. Runs @sentry/cli.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { VersionInfo } from '@portal/contract';
import { REPO_ROOT } from '@portal/dev-stack';

const SETTINGS = ['SENTRY_AUTH_TOKEN', 'SENTRY_ORG', 'SENTRY_PROJECT'] as const;
const missing = SETTINGS.filter((name) => !process.env[name]);
if (missing.length > 0) {
  console.log(`Source maps not uploaded: set ${missing.join(', ')} (and SENTRY_URL for a self-hosted Sentry).`);
  process.exit(0);
}

const releaseFile = path.join(REPO_ROOT, 'apps/api/dist/release.json');
const assets = path.join(REPO_ROOT, 'apps/web/dist/assets');
const maps = path.join(REPO_ROOT, 'apps/web/dist-sourcemaps/assets');
if (!existsSync(releaseFile) || !existsSync(maps)) {
  console.error('No build to upload from: run `npm run build` first.');
  process.exit(1);
}
const { release } = JSON.parse(readFileSync(releaseFile, 'utf8')) as VersionInfo;
if (/\+(unknown|development)|-dirty$/.test(release)) {
  console.error(`${release} is not a build of a commit: upload maps only from a clean checkout or PORTAL_REVISION.`);
  process.exit(1);
}

const sentryCli = path.join(REPO_ROOT, 'node_modules/.bin/sentry-cli');
function sentry(args: string[]) {
  const result = spawnSync(sentryCli, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`sentry-cli ${args.slice(0, 2).join(' ')} failed (see above)`);
}

// Each script beside its map under the name the browser loads it by; a script without a map (the bundler's
// small runtime) goes too, so its frames resolve to the file at least.
const staging = await mkdtemp(path.join(os.tmpdir(), 'portal-sourcemaps-'));
try {
  await mkdir(path.join(staging, 'assets'));
  const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
  let paired = 0;
  for (const name of scripts) {
    await copyFile(path.join(assets, name), path.join(staging, 'assets', name));
    if (existsSync(path.join(maps, `${name}.map`))) {
      await copyFile(path.join(maps, `${name}.map`), path.join(staging, 'assets', `${name}.map`));
      paired += 1;
    }
  }
  console.log(`Uploading ${scripts.length} scripts with ${paired} source maps as release ${release}`);
  sentry(['releases', 'new', release]);
  sentry([
    'sourcemaps',
    'upload',
    '--release',
    release,
    '--url-prefix',
    '~/assets',
    '--validate',
    path.join(staging, 'assets'),
  ]);
} finally {
  await rm(staging, { recursive: true, force: true });
}
