/**
 * `npm run build`'s second half: the API server and the CLI as JavaScript in apps/api/dist (see compileApi),
 * with the release (package version + git revision, scripts/lib/release.ts) compiled in and written beside
 * the bundles as release.json.
 */
import { compileApi } from '@portal/dev-stack';
import { releaseName } from '@portal/contract';
import { currentRelease } from './lib/release.ts';

const release = currentRelease();
await compileApi({ release: { ...release, release: releaseName(release) } });
