import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const TEXT_FILE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|xml)$/;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * A brotli and a gzip twin beside every text file under `outDir`, each written beside its place and renamed in:
 * a server already serving the folder (npm start's, while this runs after the build) never sends half of one.
 * A file that has both twins already is left alone (a run cut short is finished by the next; Vite empties the
 * folder on every build, so no twin is ever left from another one).
 */
export async function precompress(outDir: string): Promise<void> {
  const files = await filesUnder(outDir);
  const present = new Set(files);
  const texts = files.filter(
    (file) =>
      TEXT_FILE.test(file) &&
      !file.includes(`${path.sep}.vite${path.sep}`) &&
      !(present.has(`${file}.br`) && present.has(`${file}.gz`)),
  );
  await Promise.all(
    texts.map(async (file) => {
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzipAsync(content, { level: 9 }),
      ]);
      for (const [suffix, bytes] of [
        ['.br', br],
        ['.gz', gz],
      ] as const) {
        await writeFile(`${file}${suffix}.partial`, bytes);
        await rename(`${file}${suffix}.partial`, `${file}${suffix}`);
      }
    }),
  );
}

/**
 * After `vite build`: source maps leave the served folder for `sourceMapsDir` (kept for error reporting,
 * never public), and every text file gets a brotli and a gzip twin the server sends as they are
 * (`precompress`). With PORTAL_PRECOMPRESS=later the twins are left to the caller, who runs `precompress`
 * after the build (npm start: the page is served meanwhile, uncompressed; decision 0127).
 */
export function productionAssets({ sourceMapsDir }: { sourceMapsDir: string }): Plugin {
  let outDir = '';
  return {
    name: 'portal-production-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await rm(sourceMapsDir, { recursive: true, force: true });
      const files = await filesUnder(outDir);
      for (const file of files.filter((candidate) => candidate.endsWith('.map'))) {
        const target = path.join(sourceMapsDir, path.relative(outDir, file));
        await mkdir(path.dirname(target), { recursive: true });
        await rename(file, target);
      }
      if (process.env.PORTAL_PRECOMPRESS !== 'later') await precompress(outDir);
    },
  };
}
