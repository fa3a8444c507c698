/**
 * Which API test files a change touches, for `npm run test:changed`: a test file is related to a changed file
 * when it imports it, directly or through other modules, or sits in the same folder. Not through the modules
 * that assemble the whole app (HUBS): every test that builds an app reaches every module through them, and a
 * change to one domain would then run the whole suite.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Modules that import every domain; a path through them relates every test to everything. */
export const HUBS = new Set([
  'apps/api/src/app.ts',
  'apps/api/src/domain.ts',
  'apps/api/src/infrastructure.ts',
  'apps/api/test/helpers/test-app.ts',
]);

/** The workspaces' package names, as API files import them, with the folder their exports live in. */
const PACKAGES: Record<string, string> = {
  '@portal/contract': 'packages/contract/src',
  '@portal/dev-stack': 'packages/dev-stack/src',
};

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The repository files `file` (relative to `root`) imports: relative paths and the workspaces' packages. */
export function importsOf(root: string, file: string, read = (at: string) => readFileSync(at, 'utf8')): string[] {
  let text: string;
  try {
    text = read(path.join(root, file));
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? '';
    if (specifier.startsWith('.'))
      found.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
    else {
      const name = Object.keys(PACKAGES).find((known) => specifier === known || specifier.startsWith(`${known}/`));
      if (!name) continue;
      const rest = specifier.slice(name.length + 1);
      // A package's subpath is its src file of that name (`@portal/dev-stack/passkeys` → src/passkeys.ts).
      found.push(`${PACKAGES[name]}/${rest === '' ? 'index' : rest}.ts`);
    }
  }
  return found;
}

/**
 * The test files among `tests` that reach one of `changed` through their imports (not through HUBS), or share
 * a folder with one, in the order given.
 */
export function relatedTests(
  root: string,
  tests: string[],
  changed: string[],
  read?: (at: string) => string,
): string[] {
  const changedSet = new Set(changed);
  const changedFolders = new Set(changed.map((file) => path.posix.dirname(file)));
  const reaches = new Map<string, boolean>();
  const visit = (file: string, seen: Set<string>): boolean => {
    const known = reaches.get(file);
    if (known !== undefined) return known;
    if (changedSet.has(file)) return true;
    if (HUBS.has(file) || seen.has(file)) return false;
    seen.add(file);
    const result = importsOf(root, file, read).some((imported) => visit(imported, seen));
    reaches.set(file, result);
    return result;
  };
  return tests.filter((test) => changedFolders.has(path.posix.dirname(test)) || visit(test, new Set()));
}
