/**
 * The third-party packages a production tree holds, read from the folders npm installed them in (name and
 * version of each package.json). The witness the SBOMs are held to: the production check requires the SBOMs to
 * list exactly these, so a package the generator missed, or one it listed that is not installed, fails.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface InstalledPackage {
  name: string;
  version: string;
  /** The package's folder. */
  dir: string;
}

/** The package in the folder `dir`. */
export function packageAt(dir: string): InstalledPackage {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  return { name: String(manifest.name ?? path.basename(dir)), version: String(manifest.version ?? ''), dir };
}

/**
 * Every package installed under `root`'s node_modules folders (nested ones and the workspaces' own included),
 * once per name and version. Workspace links (the repository's own packages) are not third-party and are skipped.
 */
export function installedPackages(root: string): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visitModules = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(modules, entry.name);
      if (entry.name.startsWith('@') && entry.isDirectory()) {
        for (const scoped of readdirSync(full, { withFileTypes: true })) {
          if (scoped.isDirectory()) visitPackage(path.join(full, scoped.name));
        }
      } else if (entry.isDirectory()) {
        visitPackage(full);
      }
    }
  };
  const visitPackage = (dir: string) => {
    if (existsSync(path.join(dir, 'package.json'))) {
      const pkg = packageAt(dir);
      const key = `${pkg.name}@${pkg.version}`;
      if (!found.has(key)) found.set(key, pkg);
    }
    visitModules(path.join(dir, 'node_modules'));
  };
  visitModules(path.join(root, 'node_modules'));
  for (const workspace of ['apps', 'packages']) {
    const base = path.join(root, workspace);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      if (entry.isDirectory()) visitModules(path.join(base, entry.name, 'node_modules'));
    }
  }
  visitModules(path.join(root, 'e2e', 'node_modules'));
  return sortPackages([...found.values()]);
}

function sortPackages(packages: InstalledPackage[]): InstalledPackage[] {
  return packages.sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/**
 * What production carries from third parties: the packages installed in `installRoot` by
 * `npm ci --omit=dev` and those compiled into the API's or the SPA's bundles (their folders in `bundledDirs`),
 * each once.
 */
export function productionPackages(installRoot: string, bundledDirs: string[]): InstalledPackage[] {
  const all = new Map<string, InstalledPackage>();
  for (const pkg of [...installedPackages(installRoot), ...bundledDirs.map(packageAt)]) {
    all.set(`${pkg.name}@${pkg.version}`, all.get(`${pkg.name}@${pkg.version}`) ?? pkg);
  }
  return sortPackages([...all.values()]);
}
