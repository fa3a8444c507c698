import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eInvoiceSamplesDir } from '../packages/dev-stack/src/e-invoice-samples.ts';
import { findForeignFiles, foreignLicenceHeader, vendoredMarker } from './lib/foreign-files.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The phrases are joined at run time, so this file carries none of them whole.
const words = (...parts: string[]) => parts.join(' ');

test("a file opening with another project's licence header is found, whichever licence it is", () => {
  const headers = [
    `// ${'SPDX-License-'}Identifier: Apache-2.0\nexport const x = 1;`,
    `/*\n * ${words('Licensed', 'under the', 'Apache License')}, Version 2.0\n */`,
    `/* ${words('Permission is', 'hereby granted,', 'free of charge,')} to any person */`,
    `<!-- ${words('Licensed', 'under the', 'EUPL')}, Version 1.2 -->`,
    `# ${words('GNU General', 'Public License')} v3`,
    `${words('Redistribution and use', 'in source and binary forms')}, with or without`,
  ];
  for (const header of headers) assert.ok(foreignLicenceHeader(header), header);
});

test("the project's own files pass: no header, or an SPDX line with the project's licence", () => {
  assert.equal(
    foreignLicenceHeader('import x from "y";\n// the licence of a package is read from its manifest'),
    undefined,
  );
  assert.equal(foreignLicenceHeader(`// ${'SPDX-License-'}Identifier: UNLICENSED\n`), undefined);
  // A phrase far below the top is prose about licences, not a header.
  assert.equal(foreignLicenceHeader(`${'line\n'.repeat(60)}${words('Mozilla Public', 'License')}`), undefined);
});

test('a vendored folder is found: a vendor folder, a nested licence file, a package of its own', () => {
  const licence = (licences: Record<string, string | undefined>) => (file: string) => licences[file];
  const none = licence({});
  assert.match(vendoredMarker('apps/api/vendor/lib.js', [], none) ?? '', /"vendor" folder/);
  assert.match(vendoredMarker('third_party/x/index.ts', [], none) ?? '', /"third_party" folder/);
  assert.match(vendoredMarker('apps/api/test/copied/LICENSE.md', [], none) ?? '', /licence file/);
  assert.match(vendoredMarker('apps/api/test/copied/COPYING', [], none) ?? '', /licence file/);
  assert.match(vendoredMarker('tools/x/package.json', [], licence({ 'tools/x/package.json': 'ISC' })) ?? '', /ISC/);
  assert.match(vendoredMarker('tools/x/package.json', [], none) ?? '', /unstated/);
  // The root's licence, the workspaces and a tool folder of the project's own licence are the project's.
  assert.equal(vendoredMarker('LICENSE', [], none), undefined);
  assert.equal(vendoredMarker('apps/web/package.json', ['apps/web'], none), undefined);
  assert.equal(
    vendoredMarker('tools/y/package.json', [], licence({ 'tools/y/package.json': 'UNLICENSED' })),
    undefined,
  );
});

test("the repository holds no other project's files", () => {
  assert.deepEqual(
    findForeignFiles(REPO_ROOT),
    [],
    "Another project's files are in the repository. Install them as a package, or read data from outside " +
      'the repository (../shared), instead of copying them in.',
  );
});

test('the public e-invoice samples come from ../shared, and their absence says where they were looked for', () => {
  const missing = path.join(REPO_ROOT, '..', 'no-such-shared-folder');
  assert.throws(
    () => eInvoiceSamplesDir(missing),
    /\.\.\/shared\/e-invoice-samples beside the repository.*no-such-shared-folder/,
  );
  assert.equal(existsSync(path.join(REPO_ROOT, 'apps/api/test/fixtures/e-invoices/facturx-en16931.pdf')), false);
});
