import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextVersion, releaseChangelog, unreleasedMigrations } from './lib/releases.ts';

const CHANGELOG = `# Changelog

Intro.

## [Unreleased]

### Added

- A thing.

### Upgrade notes

- Read this first.

## [1.0.0] - 2026-11-23

### Added

- The first.
`;

describe('releases', () => {
  it('bumps major, minor and patch, and takes a version above the current one only', () => {
    assert.equal(nextVersion('1.4.2', 'major'), '2.0.0');
    assert.equal(nextVersion('1.4.2', 'minor'), '1.5.0');
    assert.equal(nextVersion('1.4.2', 'patch'), '1.4.3');
    assert.equal(nextVersion('1.4.2', '1.10.0'), '1.10.0');
    assert.throws(() => nextVersion('1.4.2', '1.4.2'), /not above/);
    assert.throws(() => nextVersion('1.4.2', 'next'), /neither/);
  });

  it('moves Unreleased under the version, upgrade notes first and naming the migrations', () => {
    const released = releaseChangelog(CHANGELOG, '1.1.0', '2026-11-27', ['0006_a', '0007_b']);
    assert.equal(
      released,
      `# Changelog

Intro.

## [Unreleased]

## [1.1.0] - 2026-11-27

### Upgrade notes

- Read this first.
- Migrations \`0006_a\`, \`0007_b\`: run them before the new instances start (deploy/README.md, "Upgrade").

### Added

- A thing.

## [1.0.0] - 2026-11-23

### Added

- The first.
`,
    );
  });

  it('writes upgrade notes when Unreleased has none, and refuses to release nothing', () => {
    const withoutNotes = CHANGELOG.replace('### Upgrade notes\n\n- Read this first.\n\n', '');
    const released = releaseChangelog(withoutNotes, '1.0.1', '2026-11-27', []);
    assert.match(
      released,
      /## \[1\.0\.1\] - 2026-11-27\n\n### Upgrade notes\n\n- No migrations: the schema is the previous release's\.\n\n### Added\n\n- A thing\./,
    );
    const empty = CHANGELOG.replace(/## \[Unreleased\][\s\S]*?(?=## \[1\.0\.0\])/, '## [Unreleased]\n\n');
    assert.throws(() => releaseChangelog(empty, '1.0.1', '2026-11-27', []), /nothing to release/);
  });

  it('finds the migrations no release introduced', () => {
    const record = { releases: [{ version: '1.0.0', date: '2026-11-23', migrations: ['0000_a', '0001_b'] }] };
    assert.deepEqual(unreleasedMigrations(record, ['0000_a', '0001_b', '0002_c']), ['0002_c']);
  });
});
