/**
 * The runtime folder: everything production runs and nothing else — the compiled API and CLI
 * (apps/api/dist, with its migrations and release.json), the built SPA (apps/web/dist), the package files
 * npm reads, and the production install. The container image's /app is this folder (the Dockerfile's build
 * stage runs scripts/build-runtime.ts) and `npm run test:production` starts the server from it, so what CI
 * checks is what the image carries.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '@portal/dev-stack';

/** What production needs from the repository, relative to its root. */
export const RUNTIME_FILES = [
  'package.json',
  'package-lock.json',
  // The root postinstall names it; it does nothing in a production install (kept for a by-hand `npm ci`).
  'scripts/install-emulator.mjs',
  'packages/contract/package.json',
  'packages/dev-stack/package.json',
  'apps/api/package.json',
  'apps/api/dist',
  'apps/web/package.json',
  'apps/web/dist',
  'e2e/package.json',
  // Whose code the image runs and under which licences (decision 81), beside it.
  'LICENSE',
  'NOTICE',
];

/** Written by `npm run build`; without them there is nothing to assemble. */
const BUILD_OUTPUTS = [
  'apps/api/dist/server.js',
  'apps/api/dist/main.js',
  'apps/api/dist/tracing.js',
  'apps/api/dist/cli.js',
  'apps/api/dist/invoice-reader.js',
  'apps/api/dist/release.json',
  'apps/api/dist/sbom/portal-api.cdx.json',
  'apps/api/dist/sbom/portal-web.cdx.json',
  'apps/web/dist/index.html',
];

export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** The files `npm ci` reads: every package.json of the workspaces, the lockfile and what the root's scripts name. */
const PACKAGE_FILES = RUNTIME_FILES.filter((file) => /(^|\/)package(-lock)?\.json$|\.mjs$/.test(file));

function npmCiOmitDev(dir: string) {
  const install = spawnSync(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    { cwd: dir, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (install.status !== 0) throw new Error(`npm ci --omit=dev failed in ${dir}`);
  removeTypeDeclarationPackages(dir);
}

/**
 * Every `@types` folder under `dir`'s node_modules trees. A few runtime packages (firebase-admin, the pg
 * instrumentation) list `@types/*` as dependencies for their own declaration files; nothing runs them, and
 * npm has no switch to leave a dependency's dependency out, so the folder removes them after the install.
 */
export function typeDeclarationFolders(dir: string): string[] {
  const found: string[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(modules, entry.name);
      if (entry.name === '@types') {
        found.push(full);
      } else if (entry.name.startsWith('@')) {
        for (const scoped of readdirSync(full, { withFileTypes: true }))
          if (scoped.isDirectory()) visit(path.join(full, scoped.name, 'node_modules'));
      } else {
        visit(path.join(full, 'node_modules'));
      }
    }
  };
  visit(path.join(dir, 'node_modules'));
  for (const workspace of ['apps', 'packages']) {
    const base = path.join(dir, workspace);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true }))
      if (entry.isDirectory()) visit(path.join(base, entry.name, 'node_modules'));
  }
  visit(path.join(dir, 'e2e', 'node_modules'));
  return found;
}

function removeTypeDeclarationPackages(dir: string) {
  for (const folder of typeDeclarationFolders(dir)) rmSync(folder, { recursive: true, force: true });
}

/**
 * Only the production install of the runtime folder, in `dir` (emptied first): what `npm run notice` reads
 * without needing a build.
 */
export async function installProductionTree(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const file of PACKAGE_FILES) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await cp(path.join(REPO_ROOT, file), path.join(dir, file));
  }
  npmCiOmitDev(dir);
}

export interface RuntimeFolder {
  dir: string;
  /** Bytes of files in the folder, node_modules included (what the image's layer holds). */
  bytes: number;
  nodeModulesBytes: number;
  installSeconds: number;
}

/**
 * Copies the build output and package files to `dir` (emptied first) and installs the production
 * dependencies there with `npm ci --omit=dev --ignore-scripts`: no development package and no package's
 * install script reaches production.
 */
export async function buildRuntimeFolder(dir: string): Promise<RuntimeFolder> {
  const missing = BUILD_OUTPUTS.filter((file) => !existsSync(path.join(REPO_ROOT, file)));
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run \`npm run build\` first`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const file of RUNTIME_FILES) {
    await cp(path.join(REPO_ROOT, file), path.join(dir, file), { recursive: true });
  }
  const started = performance.now();
  npmCiOmitDev(dir);
  const installSeconds = (performance.now() - started) / 1000;
  return {
    dir,
    bytes: await folderBytes(dir),
    nodeModulesBytes: await folderBytes(path.join(dir, 'node_modules')),
    installSeconds,
  };
}
