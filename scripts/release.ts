/**
 * `npm run release -- <major|minor|patch|x.y.z> [--no-tag] [--date=YYYY-MM-DD]`: makes a release of a clean
 * checkout. Bumps package.json's version (and the lock file's), moves the CHANGELOG's Unreleased entries under
 * the new version with an "Upgrade notes" subsection naming the migrations it brings, records those migrations
 * in deploy/releases.json, sets the image tags, compose's PORTAL_TAG and the migrate Job's name in deploy/, runs
 * the release checks, commits and tags `v<version>` (not with --no-tag). Push with `git push --follow-tags`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';
import { createCheck } from './lib/deploy-checks/check.ts';
import { releaseChecks } from './lib/deploy-checks/release-checks.ts';
import {
  CHANGELOG_FILE,
  journalMigrations,
  nextVersion,
  readReleases,
  RELEASES_FILE,
  releaseChangelog,
  unreleasedMigrations,
  versionEdits,
} from './lib/releases.ts';
import { packageVersion } from './lib/release.ts';

const args = process.argv.slice(2);
const bump = args.find((arg) => !arg.startsWith('--'));
const tag = !args.includes('--no-tag');
const date =
  args.find((arg) => arg.startsWith('--date='))?.slice('--date='.length) ?? new Date().toISOString().slice(0, 10);

function fail(message: string): never {
  console.error(`release: ${message}`);
  process.exit(1);
}

const git = (...gitArgs: string[]) =>
  execFileSync('git', gitArgs, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

if (!bump) fail('say which: npm run release -- major | minor | patch | <x.y.z>');
if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) fail(`--date must be YYYY-MM-DD, got ${date}`);
if (git('status', '--porcelain', '--untracked-files=no'))
  fail('the checkout has uncommitted changes: commit or stash them first');

const current = packageVersion();
let version: string;
try {
  version = nextVersion(current, bump);
} catch (error) {
  fail((error as Error).message);
}
if (tag && git('tag', '--list', `v${version}`)) fail(`the tag v${version} exists already`);

const record = readReleases();
const migrations = unreleasedMigrations(record, journalMigrations());
let changelog: string;
try {
  changelog = releaseChangelog(readFileSync(CHANGELOG_FILE, 'utf8'), version, date, migrations);
} catch (error) {
  fail((error as Error).message);
}

const editJson = (file: string, edit: (json: Record<string, unknown>) => void) => {
  const full = path.join(REPO_ROOT, file);
  const json = JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>;
  edit(json);
  writeFileSync(full, `${JSON.stringify(json, null, 2)}\n`);
};
editJson('package.json', (json) => (json.version = version));
editJson('package-lock.json', (json) => {
  json.version = version;
  const root = (json.packages as Record<string, { version?: string }>)[''];
  if (root) root.version = version;
});
writeFileSync(CHANGELOG_FILE, changelog);
record.releases.push({ version, date, migrations });
writeFileSync(RELEASES_FILE, `${JSON.stringify(record, null, 2)}\n`);
for (const [file, pattern, replacement] of versionEdits(version)) {
  const full = path.join(REPO_ROOT, file);
  const text = readFileSync(full, 'utf8');
  const edited = text.replace(pattern, replacement);
  if (edited === text) fail(`${file}: found nothing naming the release to change (${pattern})`);
  writeFileSync(full, edited);
}
execFileSync('npx', ['prettier', '--write', '--log-level=warn', 'CHANGELOG.md', 'deploy/releases.json'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});

const { check, counts } = createCheck();
releaseChecks(check);
if (counts.failed > 0) fail('the release checks above failed; nothing was committed (git checkout . to undo)');

const files = [
  'package.json',
  'package-lock.json',
  'CHANGELOG.md',
  'deploy/releases.json',
  ...new Set(versionEdits(version).map(([file]) => file)),
];
git('add', '--', ...files);
git(
  'commit',
  '--quiet',
  '-m',
  `Release ${version}`,
  '-m',
  migrations.length > 0 ? `Migrations: ${migrations.join(', ')}` : 'No migrations',
);
if (tag) git('tag', '--annotate', `v${version}`, '--message', `parcel-invoice-portal ${version}`);
console.log(
  `release: ${current} → ${version} (${migrations.length} migration${migrations.length === 1 ? '' : 's'}: ${migrations.join(', ') || 'none'}); ` +
    `committed ${git('rev-parse', '--short', 'HEAD')}${tag ? `, tagged v${version}: git push --follow-tags` : ' (no tag)'}`,
);
