/**
 * `npm run notice [sbom-folder]`: writes NOTICE from the release's SBOMs (scripts/lib/notice.ts), generated
 * afresh, or read from a folder `npm run sbom` or the build wrote; fails when a package's licence is not on
 * the allow-list (scripts/allowed-licences.json). Run it after any dependency change:
 * `npm run test:production` fails while NOTICE differs from what the build's SBOMs give.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';
import { licenceTable, refusedPackages } from './lib/licences.ts';
import { noticePackages, renderNotice } from './lib/notice.ts';
import { readReleaseSboms, releaseSboms } from './lib/sbom.ts';

const folder = process.argv[2];
const boms = folder ? await readReleaseSboms(path.resolve(folder)) : await releaseSboms();
const packages = noticePackages([boms.api, boms.web]);
console.log(`${packages.length} third-party packages in production:\n${licenceTable(packages)}`);
const refused = refusedPackages(packages);
if (refused.length > 0) {
  console.error(
    `Not allowed in production (scripts/allowed-licences.json, docs/decisions/0081-licences-notice-and-updates.md):\n  ${refused.join('\n  ')}`,
  );
  process.exitCode = 1;
}
const notice = renderNotice(packages);
const file = path.join(REPO_ROOT, 'NOTICE');
const before = (() => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
})();
writeFileSync(file, notice);
console.log(before === notice ? 'NOTICE is up to date' : 'NOTICE written');
