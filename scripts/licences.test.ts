import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { developmentPackagesAmong, developmentPackagesInNotice } from './lib/development-packages.ts';
import { installedPackages } from './lib/installed-packages.ts';
import { allowedLicences, licenceVerdict, refusedPackages } from './lib/licences.ts';
import { typeDeclarationFolders } from './lib/runtime-folder.ts';

test('the allow-list takes permissive licences and expressions built only of them', () => {
  for (const licence of [
    'MIT',
    'Apache-2.0',
    '(MIT OR CC0-1.0)',
    '(MIT AND Zlib)',
    '(MIT OR EUPL-1.1+)',
    'BlueOak-1.0.0',
  ]) {
    assert.equal(licenceVerdict(licence).allowed, true, licence);
  }
});

test('no licence, copyleft only and source-available licences are refused, saying why', () => {
  assert.deepEqual(licenceVerdict(undefined), { allowed: false, reason: 'no licence declared' });
  assert.match(licenceVerdict('FSL-1.1-Apache-2.0').reason, /source-available/);
  assert.match(licenceVerdict('FSL-1.1-MIT').reason, /source-available/);
  assert.match(licenceVerdict('BUSL-1.1').reason, /source-available/);
  assert.match(licenceVerdict('SSPL-1.0').reason, /source-available/);
  assert.match(licenceVerdict('Elastic-2.0').reason, /source-available/);
  assert.match(licenceVerdict('MIT AND Commons-Clause').reason, /source-available/);
  assert.equal(licenceVerdict('GPL-3.0-only').allowed, false);
  assert.equal(licenceVerdict('(MIT AND GPL-2.0)').allowed, false);
  assert.equal(licenceVerdict('UNLICENSED').allowed, false);
});

test('installed packages are read from their folders, nested and workspace ones included', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'licences-test-'));
  const write = (dir: string, manifest: object) => {
    mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, dir, 'package.json'), JSON.stringify(manifest));
  };
  write('node_modules/limiter', { name: 'limiter', version: '1.1.5' });
  write('node_modules/@scope/cli', { name: '@scope/cli', version: '1.0.0' });
  write('node_modules/outer/node_modules/nested', { name: 'nested', version: '0.1.0' });
  write('apps/api/node_modules/nested', { name: 'nested', version: '2.0.0' });
  assert.deepEqual(
    installedPackages(root).map((pkg) => `${pkg.name}@${pkg.version}`),
    ['@scope/cli@1.0.0', 'limiter@1.1.5', 'nested@0.1.0', 'nested@2.0.0'],
  );
});

test('the allow-list is the data file, and a licence taken off it is refused', () => {
  const allowed = allowedLicences();
  assert.ok(allowed.has('MIT') && allowed.has('Apache-2.0'));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'allow-list-test-'));
  const file = path.join(dir, 'allowed.json');
  writeFileSync(file, JSON.stringify({ allowed: ['Apache-2.0'] }));
  const narrow = allowedLicences(file);
  assert.equal(licenceVerdict('MIT', narrow).allowed, false);
  assert.deepEqual(
    refusedPackages(
      [
        { name: 'pg', version: '8.16.0', licence: 'MIT' },
        { name: '@aws-sdk/core', version: '3.981.0', licence: 'Apache-2.0' },
      ],
      narrow,
    ),
    ['pg@8.16.0: licence MIT is not on the allow-list'],
  );
  writeFileSync(file, JSON.stringify({ allowed: 'MIT' }));
  assert.throws(() => allowedLicences(file), /"allowed" must be a list/);
});

test('the mail catcher and type declarations are development packages, found in a tree and in NOTICE', () => {
  assert.deepEqual(
    developmentPackagesAmong([
      { name: 'smtp-server', version: '3.21.6' },
      { name: '@types/pg', version: '8.15.6' },
      { name: 'pg', version: '8.16.0' },
      { name: 'html-to-text', version: '10.0.1' },
    ]),
    ['smtp-server@3.21.6', '@types/pg@8.15.6', 'html-to-text@10.0.1'],
  );
  const notice = ['pg 8.16.0', '  Licence: MIT', '', 'mailparser 3.14.2', '@types/node 22.20.5', 'Copyright 2020'].join(
    '\n',
  );
  assert.deepEqual(developmentPackagesInNotice(notice), ['mailparser', '@types/node']);
});

test('the type declaration folders of a production tree are found, nested ones included', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'types-test-'));
  mkdirSync(path.join(root, 'node_modules/@types/node'), { recursive: true });
  mkdirSync(path.join(root, 'node_modules/@opentelemetry/instrumentation-pg/node_modules/@types/pg'), {
    recursive: true,
  });
  mkdirSync(path.join(root, 'node_modules/pg'), { recursive: true });
  assert.deepEqual(typeDeclarationFolders(root).sort(), [
    path.join(root, 'node_modules/@opentelemetry/instrumentation-pg/node_modules/@types'),
    path.join(root, 'node_modules/@types'),
  ]);
});
