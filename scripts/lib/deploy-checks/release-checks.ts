/**
 * One version is one schema, and every file names the same one: each migration of the journal was introduced
 * by exactly one release of deploy/releases.json; the releases rise, each has its CHANGELOG section with
 * upgrade notes, and the newest is package.json's version (a version set by hand, past the record, is refused:
 * `npm run release` makes releases). The image tags, the migrate Job and compose's PORTAL_TAG are checked
 * against the version by the compose and Kubernetes checks; the guide's `kubectl wait` by the guide's.
 */
import { readFileSync } from 'node:fs';
import { packageVersion } from '../release.ts';
import {
  CHANGELOG_FILE,
  changelogVersions,
  compareVersions,
  journalMigrations,
  readReleases,
  unreleasedMigrations,
} from '../releases.ts';
import type { Check } from './check.ts';

export function releaseChecks(check: Check) {
  const record = readReleases();
  const migrations = journalMigrations();
  const version = packageVersion();
  const unreleased = unreleasedMigrations(record, migrations);
  const latest = record.releases.at(-1)?.version;
  check(
    unreleased.length === 0,
    `release: every migration came with a release (${migrations.length} migrations in ${record.releases.length} release(s))`,
    unreleased.length === 0
      ? []
      : [
          `${unreleased.join(', ')}: in no release, while package.json says ${version}, released already with another schema`,
          'make a release: npm run release -- minor (one version is one schema: docs/decisions/0071)',
        ],
  );

  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const release of record.releases) {
    for (const migration of release.migrations) {
      if (!migrations.includes(migration)) problems.push(`${release.version}: ${migration} is not in the journal`);
      if (seen.has(migration)) problems.push(`${migration}: in ${seen.get(migration)} and ${release.version}`);
      seen.set(migration, release.version);
    }
  }
  record.releases.forEach((release, index) => {
    const previous = record.releases[index - 1];
    if (previous && compareVersions(release.version, previous.version) <= 0) {
      problems.push(`${release.version} comes after ${previous.version}`);
    }
  });
  // Journal order: a release's migrations come after every earlier release's.
  const order = record.releases.flatMap((release) => release.migrations);
  const inJournal = migrations.filter((migration) => order.includes(migration));
  if (order.join() !== inJournal.join()) problems.push('the releases list migrations out of journal order');
  check(
    problems.length === 0,
    'release: deploy/releases.json names journal migrations, each once, in order, under rising versions',
    problems,
  );

  const changelog = readFileSync(CHANGELOG_FILE, 'utf8');
  const sections = changelogVersions(changelog);
  const undocumented = record.releases
    .map((release) => release.version)
    .filter((released) => {
      const start = changelog.indexOf(`## [${released}]`);
      const end = changelog.indexOf('\n## [', start + 1);
      return start < 0 || !changelog.slice(start, end < 0 ? undefined : end).includes('### Upgrade notes');
    });
  check(
    latest === version && sections[0] === version && undocumented.length === 0,
    `release: package.json's ${version} is the newest release and the CHANGELOG's newest section, each release's section with upgrade notes`,
    [
      ...(latest === version
        ? []
        : [`newest release recorded: ${latest}; package.json: ${version} (use npm run release)`]),
      ...(sections[0] === version ? [] : [`CHANGELOG's newest section: ${sections[0]}`]),
      ...undocumented.map((released) => `CHANGELOG: no "## [${released}]" section with "### Upgrade notes"`),
    ],
  );
}
