/**
 * Builds skipped when nothing they read has changed: a SHA-256 over the path and bytes of every input file
 * (folders walked in a fixed order), recorded under node_modules/.cache once the build has succeeded (not
 * in the output, which is served and shipped). A build that fails or is cut short leaves no record, so
 * the next run builds again; so does an output that has gone.
 *
 * A successful build's output is also kept in a cache of this machine's user, named by that hash (the
 * build cache, PORTAL_BUILD_CACHE_DIR): another checkout of the same sources (a fresh clone, a worktree, a
 * branch switched back) copies it instead of building again. Keyed by every input's bytes, never by a
 * revision or a time: a changed source is a different key, so it is never served stale. The environment
 * variables a build compiles in are part of the key too: a build made with other settings is never served.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** How many builds of each name the build cache keeps, the most recently used first. */
const CACHED_BUILDS_KEPT = 4;

/** `PORTAL_BUILD_CACHE_DIR`, else the user's cache folder; `off` keeps no cache at all. */
export function buildCacheDir(): string | undefined {
  const configured = process.env.PORTAL_BUILD_CACHE_DIR;
  if (configured === 'off') return undefined;
  if (configured) return path.resolve(configured);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'parcel-invoice-portal', 'builds');
}

/** Never inputs: what builds, installs and test runs write. */
const SKIPPED = new Set(['node_modules', 'dist', 'dist-sourcemaps', 'test-results', 'playwright-report', '.vite']);

async function listFiles(root: string, entry: string): Promise<string[]> {
  const full = path.join(root, entry);
  const found = await readdir(full, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!found) return [entry];
  const nested = await Promise.all(
    found
      .filter((child) => !SKIPPED.has(child.name))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((child) => listFiles(root, path.join(entry, child.name))),
  );
  return nested.flat();
}

/**
 * The inputs' hash; `inputs` are files or folders relative to `root`, `environment` the variables the build
 * reads (a build made with other settings is another build).
 */
export async function hashInputs(
  root: string,
  inputs: readonly string[],
  environment: Readonly<Record<string, string>> = {},
): Promise<string> {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of await listFiles(root, input)) {
      hash.update(`${file}\0`);
      hash.update(await readFile(path.join(root, file)));
      hash.update('\0');
    }
  }
  for (const name of Object.keys(environment).sort()) hash.update(`env ${name}=${environment[name]}\0`);
  return hash.digest('hex');
}

export type BuildOutcome = 'built' | 'unchanged' | 'from the build cache';

/**
 * Runs `build` unless the last successful build named `name` read the same inputs and its `output` (a file
 * it writes) is still there, or the build cache holds the output of a build of the same inputs (then its
 * `outputDirs` are copied from there). `outputDirs`: the folders the build writes, relative to `root`.
 */
export async function buildIfChanged(options: {
  name: string;
  root: string;
  inputs: readonly string[];
  /** Environment variables the build compiles in (the SPA's `VITE_*`): part of the key like the files. */
  environment?: Readonly<Record<string, string>>;
  output: string;
  outputDirs?: readonly string[];
  build: () => Promise<void>;
  /**
   * Work on the output that may go on after this returns (npm start: the SPA's compressed twins, while the
   * plain files are served). The build is recorded as usable at once, but kept in the build cache only once
   * this has succeeded; cut short (the start stopped), the next run that finds the same build runs it again.
   */
  finish?: () => Promise<void>;
}): Promise<BuildOutcome> {
  const recordDir = path.join(options.root, 'node_modules/.cache/portal-builds');
  const record = path.join(recordDir, `${options.name}.inputs-sha256`);
  const inputsHash = await hashInputs(options.root, options.inputs, options.environment);
  const [recorded, unfinished] = existsSync(record) ? (await readFile(record, 'utf8')).trim().split(' ') : [];
  const cacheDir = buildCacheDir();
  const cached = cacheDir && options.outputDirs && path.join(cacheDir, `${options.name}-${inputsHash}`);
  const writeRecord = async (state: 'finished' | 'unfinished') => {
    await mkdir(recordDir, { recursive: true });
    await writeFile(record, state === 'finished' ? `${inputsHash}\n` : `${inputsHash} unfinished\n`);
  };
  const finishThenKeep = (finish: () => Promise<void>) =>
    // Unfinished it stays when this fails: the next run tries again.
    void (async () => {
      await finish();
      if (cached && options.outputDirs) await storeInCache(cached, options.root, options.outputDirs, options.name);
      await writeRecord('finished');
    })().catch(() => {});

  if (recorded === inputsHash && existsSync(options.output)) {
    if (unfinished && options.finish) finishThenKeep(options.finish);
    return 'unchanged';
  }
  await rm(record, { force: true });
  if (cached && options.outputDirs && (await restoreCached(cached, options.root, options.outputDirs))) {
    await writeRecord('finished');
    return 'from the build cache';
  }
  await options.build();
  if (options.finish) {
    await writeRecord('unfinished');
    finishThenKeep(options.finish);
    return 'built';
  }
  if (cached && options.outputDirs) await storeInCache(cached, options.root, options.outputDirs, options.name);
  await writeRecord('finished');
  return 'built';
}

/** Copies a cached build's folders into place; false when the cache has none of these inputs (or an unreadable one). */
async function restoreCached(entry: string, root: string, outputDirs: readonly string[]): Promise<boolean> {
  // The marker is written last: a build cached halfway (the machine stopped) is never restored.
  if (!existsSync(path.join(entry, 'complete'))) return false;
  try {
    for (const dir of outputDirs) {
      await rm(path.join(root, dir), { recursive: true, force: true });
      await cp(path.join(entry, 'output', dir), path.join(root, dir), { recursive: true });
    }
    // Used now: pruning keeps the builds used last.
    const now = new Date();
    await writeFile(path.join(entry, 'complete'), `${now.toISOString()}\n`);
    return true;
  } catch {
    // Whatever was half copied is rebuilt over.
    return false;
  }
}

/** Keeps a build's folders under `entry`, written beside it and renamed into place, then prunes old ones. */
async function storeInCache(entry: string, root: string, outputDirs: readonly string[], name: string) {
  const staging = `${entry}.${randomBytes(6).toString('hex')}.partial`;
  try {
    for (const dir of outputDirs) {
      await cp(path.join(root, dir), path.join(staging, 'output', dir), { recursive: true });
    }
    await writeFile(path.join(staging, 'complete'), `${new Date().toISOString()}\n`);
    await rm(entry, { recursive: true, force: true });
    await rename(staging, entry);
    await pruneCache(path.dirname(entry), name);
  } catch {
    // A cache that cannot be written (a full disk, a read-only home) costs the next clone a build, nothing more.
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function pruneCache(cacheDir: string, name: string) {
  const entries = (await readdir(cacheDir)).filter(
    (entry) => entry.startsWith(`${name}-`) && !entry.endsWith('.partial'),
  );
  const used = await Promise.all(
    entries.map(async (entry) => ({
      entry,
      atMs: (await stat(path.join(cacheDir, entry, 'complete')).catch(() => undefined))?.mtimeMs ?? 0,
    })),
  );
  used.sort((a, b) => b.atMs - a.atMs);
  for (const { entry } of used.slice(CACHED_BUILDS_KEPT)) {
    await rm(path.join(cacheDir, entry), { recursive: true, force: true });
  }
}
