/**
 * Which release a build is: the root package.json's version plus the source revision it was built from.
 * The revision comes from PORTAL_REVISION when set (a container build has no .git: the Dockerfile passes
 * it as a build argument), else from git, else it is "unknown" and the build says so.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';

export interface ReleaseInfo {
  version: string;
  revision: string;
}

const REVISION = /^[0-9a-f]{7,64}$/;

function gitRevision(): string | undefined {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' });
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    // A build of uncommitted changes is not that commit: say so in the revision rather than lie.
    return `${head.trim()}${dirty.trim() ? '-dirty' : ''}`;
  } catch {
    return undefined;
  }
}

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version?: string };
  if (!manifest.version) throw new Error('package.json has no "version"');
  return manifest.version;
}

/** Throws when PORTAL_VERSION / PORTAL_REVISION are set but do not fit: a label must not lie. */
export function currentRelease(env: NodeJS.ProcessEnv = process.env): ReleaseInfo {
  const version = packageVersion();
  const expectedVersion = env.PORTAL_VERSION?.trim();
  if (expectedVersion && expectedVersion !== version) {
    throw new Error(`PORTAL_VERSION is ${expectedVersion} but package.json says ${version}`);
  }
  const given = env.PORTAL_REVISION?.trim();
  if (given && !REVISION.test(given.replace(/-dirty$/, ''))) {
    throw new Error(`PORTAL_REVISION must be a git commit id (hex), got "${given}"`);
  }
  const revision = given || gitRevision();
  if (!revision) {
    console.warn('warning: no PORTAL_REVISION and no git checkout: the build is marked revision "unknown"');
  }
  return { version, revision: revision ?? 'unknown' };
}
