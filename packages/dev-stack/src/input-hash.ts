/**
 * Builds skipped when nothing they read has changed: a SHA-256 over the path and bytes of every input file
 * (folders walked in a fixed order), recorded under node_modules/.cache once the build has succeeded (not
 * in the output, which is served and shipped). A build that fails or is cut short leaves no record, so
 * the next run builds again; so does an output that has gone.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

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

/** The inputs' hash; `inputs` are files or folders relative to `root`. */
export async function hashInputs(root: string, inputs: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of await listFiles(root, input)) {
      hash.update(`${file}\0`);
      hash.update(await readFile(path.join(root, file)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

export type BuildOutcome = 'built' | 'unchanged';

/**
 * Runs `build` unless the last successful build named `name` read the same inputs and its `output` (a file
 * it writes) is still there.
 */
export async function buildIfChanged(options: {
  name: string;
  root: string;
  inputs: readonly string[];
  output: string;
  build: () => Promise<void>;
}): Promise<BuildOutcome> {
  const recordDir = path.join(options.root, 'node_modules/.cache/portal-builds');
  const record = path.join(recordDir, `${options.name}.inputs-sha256`);
  const inputsHash = await hashInputs(options.root, options.inputs);
  const recorded = existsSync(record) ? (await readFile(record, 'utf8')).trim() : undefined;
  if (recorded === inputsHash && existsSync(options.output)) return 'unchanged';
  await rm(record, { force: true });
  await options.build();
  await mkdir(recordDir, { recursive: true });
  await writeFile(record, `${inputsHash}\n`);
  return 'built';
}
