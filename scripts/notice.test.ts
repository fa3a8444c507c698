import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusedPackages } from './lib/licences.ts';
import { componentLicence, componentSource, noticePackages, renderNotice } from './lib/notice.ts';
import type { Sbom, SbomComponent } from './lib/sbom.ts';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const evidence = (file: string, text: string) => ({
  license: { name: `file: ${file}`, text: { content: base64(text), contentType: 'text/plain', encoding: 'base64' } },
});

const pg: SbomComponent = {
  type: 'library',
  name: 'pg',
  version: '8.16.0',
  licenses: [{ license: { id: 'MIT' } }],
  externalReferences: [{ type: 'vcs', url: 'git+https://github.com/brianc/node-postgres.git#packages/pg' }],
  evidence: {
    licenses: [evidence('LICENSE', 'MIT License\r\n\r\nCopyright (c) 2010 Brian Carlson\r\n\r\nPermission …')],
  },
};
const awsCore: SbomComponent = {
  type: 'library',
  group: '@aws-sdk',
  name: 'core',
  version: '3.981.0',
  licenses: [{ license: { id: 'Apache-2.0' } }],
  externalReferences: [{ type: 'vcs', url: 'github:aws/aws-sdk-js-v3' }],
  evidence: {
    licenses: [
      evidence('NOTICE', 'AWS SDK for JavaScript\nCopyright Amazon.com, Inc.'),
      evidence('LICENSE', 'Apache License\nCopyright 2018 Amazon.com, Inc. or its affiliates.\nTERMS'),
    ],
  },
};
const legacy: SbomComponent = {
  type: 'library',
  name: 'buffer-crc32',
  version: '0.2.13',
  licenses: [{ license: { id: 'MIT' } }, { license: { id: 'MIT' } }],
};
const sbom = (components: SbomComponent[]): Sbom => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  metadata: {},
  components,
});

test("a component's licence and source are read from its SBOM record", () => {
  assert.equal(componentLicence(pg), 'MIT');
  assert.equal(componentLicence(legacy), 'MIT');
  assert.equal(
    componentLicence({ type: 'library', name: 'x', licenses: [{ expression: '(MIT OR CC0-1.0)' }] }),
    '(MIT OR CC0-1.0)',
  );
  assert.equal(
    componentLicence({
      type: 'library',
      name: 'x',
      licenses: [{ license: { id: 'MIT' } }, { license: { id: 'GPL-2.0' } }],
    }),
    '(MIT OR GPL-2.0)',
  );
  assert.equal(componentLicence({ type: 'library', name: 'x' }), undefined);
  assert.equal(componentSource(pg), 'https://github.com/brianc/node-postgres');
  assert.equal(componentSource(awsCore), 'https://github.com/aws/aws-sdk-js-v3');
});

test('NOTICE renders each package of the SBOMs once, its copyright lines, each licence text once, NOTICE files', () => {
  const portal: SbomComponent = { type: 'library', group: '@portal', name: 'api', version: '1.3.0' };
  const packages = noticePackages([sbom([pg, portal, awsCore]), sbom([pg, legacy])]);
  assert.deepEqual(
    packages.map((pkg) => `${pkg.name}@${pkg.version}`),
    ['@aws-sdk/core@3.981.0', 'buffer-crc32@0.2.13', 'pg@8.16.0'],
  );
  const notice = renderNotice(packages);
  assert.match(
    notice,
    /^pg 8\.16\.0\n {2}Licence: MIT\n {2}Source: https:\/\/github\.com\/brianc\/node-postgres\n {2}Copyright \(c\) 2010 Brian Carlson\n/m,
  );
  assert.match(notice, /^buffer-crc32 0\.2\.13\n {2}Licence: MIT\n\n/m);
  assert.match(notice, /^--- MIT ---\nMIT License\n\n\nPermission …\n/m);
  assert.match(notice, /^--- Apache-2\.0 ---\nApache License\nTERMS\n/m);
  assert.match(notice, /^--- @aws-sdk\/core 3\.981\.0 ---\nAWS SDK for JavaScript\nCopyright Amazon\.com, Inc\.\n/m);
  assert.doesNotMatch(notice, /\r|@portal/);
  // The same SBOMs give the same bytes, whatever their order of components.
  assert.equal(renderNotice(noticePackages([sbom([legacy, awsCore, pg])])), notice);
});

test('a package of the SBOMs without a licence, or with one off the list, is refused', () => {
  const packages = noticePackages([
    sbom([
      pg,
      { type: 'library', name: 'nameless', version: '0.1.0' },
      { ...legacy, licenses: [{ license: { id: 'GPL-3.0-only' } }] },
    ]),
  ]);
  assert.deepEqual(refusedPackages(packages), [
    'buffer-crc32@0.2.13: licence GPL-3.0-only is not on the allow-list',
    'nameless@0.1.0: no licence declared',
  ]);
});
