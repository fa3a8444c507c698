/**
 * Compiles the API server and the CLI to JavaScript (apps/api/dist), so production runs on plain Node
 * without tsx. Each entry is bundled with the workspace's own TypeScript sources (@portal/contract
 * included); packages from node_modules stay imports, installed by `npm ci --omit=dev`.
 * The bundles sit at the same folder depth as apps/api/src, so paths resolved from import.meta.url
 * (the repository root, the migrations) hold in both.
 * The release (package version + git revision, scripts/lib/release.ts) is compiled in and written beside
 * the bundles as release.json, so a build without .git still knows what it is.
 */
import { cp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from '@portal/dev-stack';
import { releaseName } from '@portal/contract';
import { currentRelease } from './lib/release.ts';

const apiDir = path.join(REPO_ROOT, 'apps/api');
const outDir = path.join(apiDir, 'dist');

const release = currentRelease();
await rm(outDir, { recursive: true, force: true });
await build({
  entryPoints: { server: path.join(apiDir, 'src/server.ts'), cli: path.join(apiDir, 'src/cli/index.ts') },
  outdir: outDir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
  define: { PORTAL_BUILD: JSON.stringify(release) },
  plugins: [
    {
      name: 'node-modules-stay-external',
      setup(builder) {
        builder.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
await cp(path.join(apiDir, 'src/db/migrations'), path.join(outDir, 'migrations'), { recursive: true });
await writeFile(
  path.join(outDir, 'release.json'),
  `${JSON.stringify({ ...release, release: releaseName(release) }, null, 2)}\n`,
);
