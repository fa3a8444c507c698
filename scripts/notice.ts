/**
 * `npm run notice`: writes NOTICE from the production install (`npm ci --omit=dev` in a scratch folder, as the
 * runtime folder gets it), the packages compiled into the API's bundles and those in the SPA's bundle, after checking every licence against
 * the allow-list of decision 81. Run it after any dependency change; `npm run test:production` fails while
 * NOTICE differs from what the production install would give.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundledPackageDirs, REPO_ROOT } from '@portal/dev-stack';
import { licenceTable, productionPackages, refusedPackages, renderNotice } from './lib/licences.ts';
import { installProductionTree } from './lib/runtime-folder.ts';

const scratch = await mkdtemp(path.join(os.tmpdir(), 'portal-notice-'));
try {
  await installProductionTree(scratch);
  const packages = productionPackages(scratch, await bundledPackageDirs());
  console.log(`${packages.length} third-party packages in production:\n${licenceTable(packages)}`);
  const refused = refusedPackages(packages);
  if (refused.length > 0) {
    console.error(
      `Not allowed in production (docs/decisions/0081-licences-notice-and-updates.md):\n  ${refused.join('\n  ')}`,
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
} finally {
  await rm(scratch, { recursive: true, force: true });
}
