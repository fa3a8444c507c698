import { readFileSync } from 'node:fs';
import { releaseName, type VersionInfo } from '@portal/contract';

/** Set by the build (scripts/build.ts) to the release it compiled; absent when run from source. */
declare const PORTAL_BUILD: { version: string; revision: string } | undefined;

function fromSource(): { version: string; revision: string } {
  const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return { version: manifest.version, revision: process.env.PORTAL_REVISION?.trim() || 'development' };
}

let current: VersionInfo | undefined;

/**
 * The release this process runs: fixed at build time in the compiled server (a container has no .git to
 * ask), read from package.json when run from source.
 */
export function currentRelease(): VersionInfo {
  if (!current) {
    const build = typeof PORTAL_BUILD === 'undefined' ? fromSource() : PORTAL_BUILD;
    current = { ...build, release: releaseName(build) };
  }
  return current;
}
