/**
 * Releases as records: which migrations each version introduced (deploy/releases.json), the CHANGELOG's
 * sections, and every file in deploy/ that names the release. `npm run release` writes them; the deploy checks
 * read them. One version is one schema: a migration in no release fails `npm run test:deploy`, since images
 * and the migrate Job are named by version and a second build under a released version would find its
 * `portal-migrate-<version>` complete and never migrate (docs/decisions/0071).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';

export const RELEASES_FILE = path.join(REPO_ROOT, 'deploy/releases.json');
export const JOURNAL_FILE = path.join(REPO_ROOT, 'apps/api/src/db/migrations/meta/_journal.json');
export const CHANGELOG_FILE = path.join(REPO_ROOT, 'CHANGELOG.md');

export interface Release {
  version: string;
  date: string;
  migrations: string[];
}

export interface ReleasesRecord {
  $comment?: string;
  releases: Release[];
}

export const readReleases = (file = RELEASES_FILE) => JSON.parse(readFileSync(file, 'utf8')) as ReleasesRecord;

export function journalMigrations(file = JOURNAL_FILE): string[] {
  const journal = JSON.parse(readFileSync(file, 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.map((entry) => entry.tag);
}

/** Migrations of the journal no release introduced yet, in journal order. */
export function unreleasedMigrations(record: ReleasesRecord, migrations: string[]): string[] {
  const released = new Set(record.releases.flatMap((release) => release.migrations));
  return migrations.filter((migration) => !released.has(migration));
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

export function compareVersions(a: string, b: string): number {
  const [x, y] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!x || !y) throw new Error(`not a version: ${x ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const difference = Number(x[i]) - Number(y[i]);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** `major`, `minor`, `patch`, or an explicit x.y.z above the current one. */
export function nextVersion(current: string, bump: string): string {
  const match = SEMVER.exec(current);
  if (!match) throw new Error(`package.json's version ${current} is not x.y.z`);
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const next =
    bump === 'major'
      ? `${major + 1}.0.0`
      : bump === 'minor'
        ? `${major}.${minor + 1}.0`
        : bump === 'patch'
          ? `${major}.${minor}.${patch + 1}`
          : bump;
  if (!SEMVER.test(next)) throw new Error(`"${bump}" is neither major, minor, patch nor a version x.y.z`);
  if (compareVersions(next, current) <= 0) throw new Error(`${next} is not above the current version ${current}`);
  return next;
}

/** The version headings of the CHANGELOG, newest first (`## [1.0.0] - 2026-11-23`), Unreleased left out. */
export function changelogVersions(text: string): string[] {
  return [...text.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((match) => match[1]!);
}

const UPGRADE_NOTES = '### Upgrade notes';

/**
 * The CHANGELOG with its Unreleased entries under `## [version] - date`, an empty Unreleased above, and an
 * "Upgrade notes" subsection first in the new section, ending with the migrations the release brings (or that
 * it brings none). Refuses an empty Unreleased section: a release says what changed.
 */
export function releaseChangelog(text: string, version: string, date: string, migrations: string[]): string {
  const heading = /^## \[Unreleased\][^\n]*\n/m.exec(text);
  if (!heading) throw new Error('CHANGELOG.md has no "## [Unreleased]" section');
  const start = heading.index + heading[0].length;
  const nextHeading = text.slice(start).search(/^## \[/m);
  const end = nextHeading === -1 ? text.length : start + nextHeading;
  const body = text.slice(start, end).trim();
  if (!/^- /m.test(body)) throw new Error('CHANGELOG.md: Unreleased lists no changes; nothing to release');

  const migrationNote =
    migrations.length > 0
      ? `- Migrations ${migrations.map((migration) => `\`${migration}\``).join(', ')}: run them before the new ` +
        'instances start (deploy/README.md, "Upgrade").'
      : "- No migrations: the schema is the previous release's.";
  const sections = body.split(/^(?=### )/m).map((section) => section.trim());
  const notesIndex = sections.findIndex((section) => section.startsWith(UPGRADE_NOTES));
  const notes = notesIndex >= 0 ? `${sections[notesIndex]}\n${migrationNote}` : `${UPGRADE_NOTES}\n\n${migrationNote}`;
  const others = sections.filter((section, index) => index !== notesIndex && section !== '');
  const released = [notes, ...others].join('\n\n');
  return `${text.slice(0, start)}\n## [${version}] - ${date}\n\n${released}\n\n${text.slice(end)}`;
}

/**
 * Every place in deploy/ (and the guide) that names the release, as [file, pattern, replacement]: the image
 * tags and the migrate Job's name in the kustomization, compose's PORTAL_TAG, the guide's `kubectl wait`.
 */
export function versionEdits(version: string): [string, RegExp, string][] {
  return [
    ['deploy/kubernetes/kustomization.yaml', /^(\s+newTag: )\S+$/gm, `$1${version}`],
    ['deploy/kubernetes/migrate-job.yaml', /^( {2}name: portal-migrate-)\S+$/m, `$1${version}`],
    ['deploy/compose.env.example', /^PORTAL_TAG=.*$/m, `PORTAL_TAG=${version}`],
    ['deploy/README.md', /job\/portal-migrate-\d+\.\d+\.\d+/g, `job/portal-migrate-${version}`],
  ];
}
