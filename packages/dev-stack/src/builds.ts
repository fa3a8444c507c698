/**
 * The SPA's and the API's builds, each skipped when its inputs are those of the last successful build
 * (input-hash.ts). `npm start`, the e2e set-up and the benchmarks share them; `npm run build` (what is
 * shipped) always builds.
 */
import { spawn } from 'node:child_process';
import type { BuildOptions } from 'esbuild';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildIfChanged, type BuildOutcome } from './input-hash.ts';
import { REPO_ROOT } from './paths.ts';

const SHARED_INPUTS = ['package-lock.json', 'tsconfig.base.json', 'packages/contract'];
const WEB_INPUTS = [...SHARED_INPUTS, 'apps/web'];
const API_INPUTS = [...SHARED_INPUTS, 'apps/api/package.json', 'apps/api/src', 'packages/dev-stack/src/builds.ts'];

const webDir = path.join(REPO_ROOT, 'apps/web');
const apiDir = path.join(REPO_ROOT, 'apps/api');

/** `vite build` in apps/web, run by this Node without npm in between; its output goes to ours. */
function runViteBuild(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const vitePackage = createRequire(path.join(webDir, 'package.json')).resolve('vite/package.json');
  const vite = path.join(path.dirname(vitePackage), 'bin/vite.js');
  return runInWebDir([vite, 'build', '--logLevel', 'warn'], env, 'Building the web app');
}

function runInWebDir(args: string[], env: NodeJS.ProcessEnv, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: webDir, env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${what} failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

/**
 * The SPA's build; `precompressLater` (npm start): done as soon as Vite has written it, its brotli and gzip
 * twins (a third of the build's CPU) written after by apps/web/build/precompress.ts (again by the next start
 * when this one was stopped first), and the build kept in the build cache only then (decision 0127). The API
 * serves the plain files meanwhile.
 */
/**
 * What of the environment the SPA's build compiles in: every `VITE_*` variable (Vite's public settings, in the
 * served script) and the source-map upload's settings (sentry-source-maps.ts: debug ids and the release in
 * the output). The upload's token counts by its presence only: its value changes nothing that is built.
 */
export function webBuildEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const read: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (name.startsWith('VITE_') || WEB_BUILD_SETTINGS.includes(name)) read[name] = value;
    if (name === 'SENTRY_AUTH_TOKEN' && value) read[name] = 'set';
  }
  return read;
}
const WEB_BUILD_SETTINGS = ['SENTRY_ORG', 'SENTRY_PROJECT', 'SENTRY_URL', 'PORTAL_RELEASE'];

export function buildWeb({ precompressLater = false } = {}): Promise<BuildOutcome> {
  return buildIfChanged({
    name: 'web',
    root: REPO_ROOT,
    inputs: WEB_INPUTS,
    environment: webBuildEnvironment(),
    output: path.join(webDir, 'dist/index.html'),
    outputDirs: ['apps/web/dist', 'apps/web/dist-sourcemaps'],
    ...(precompressLater
      ? {
          build: () => runViteBuild({ ...process.env, PORTAL_PRECOMPRESS: 'later' }),
          finish: () =>
            runInWebDir([path.join(webDir, 'build/precompress.ts'), 'dist'], process.env, 'Compressing the web app'),
        }
      : { build: () => runViteBuild() }),
  });
}

/**
 * Packages compiled into the API's bundles instead of installed in production: the Sentry SDK. Every
 * @sentry/node 11 release depends on @sentry/bundler-plugins and through it on `sentry`, the Sentry CLI under
 * the source-available FSL-1.1, which the server never loads (they are the SDK's build-tool plugins). Bundled,
 * only the modules the server imports ship, @sentry/node stays a development dependency, and the production
 * install holds no FSL package (decision 81). Their dependencies that are not Sentry's own stay imports.
 */
const BUNDLED_PACKAGES = /^@sentry\//;

function apiBuildOptions(release: { version: string; revision: string } | undefined): BuildOptions {
  return {
    entryPoints: {
      server: path.join(apiDir, 'src/server.ts'),
      // The server's entry loads these two by dynamic import, as files of their own: the tracing SDK must start
      // before main's packages load, and when tracing is off none of it may load (decision 0079). Bundled into
      // server.js, their packages would become imports at its top, loaded at once.
      main: path.join(apiDir, 'src/main.ts'),
      tracing: path.join(apiDir, 'src/observability/tracing.ts'),
      cli: path.join(apiDir, 'src/cli/index.ts'),
      // The reader pool's child process, a module of its own (apps/api/src/invoices/e-invoice/reader-pool.ts).
      'invoice-reader': path.join(apiDir, 'src/invoices/e-invoice/reader-process.ts'),
    },
    outdir: path.join(apiDir, 'dist'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: true,
    logLevel: 'warning',
    ...(release
      ? { define: { PORTAL_BUILD: JSON.stringify({ version: release.version, revision: release.revision }) } }
      : {}),
    plugins: [
      {
        name: 'entry-imports-stay-files',
        setup(builder) {
          const separate: Record<string, string> = {
            './main.ts': './main.js',
            './observability/tracing.ts': './tracing.js',
          };
          builder.onResolve({ filter: /^\.\/(main|observability\/tracing)\.ts$/ }, (args) =>
            args.importer === path.join(apiDir, 'src/server.ts')
              ? { path: separate[args.path], external: true }
              : undefined,
          );
        },
      },
      {
        name: 'node-modules-stay-external',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@portal/') || BUNDLED_PACKAGES.test(args.path)
              ? undefined
              : { path: args.path, external: true },
          );
        },
      },
    ],
  };
}

/**
 * Compiles the API server, the CLI and the invoice reader's worker to JavaScript (apps/api/dist), so they run on plain Node without
 * tsx. Each entry is bundled with the workspace's own TypeScript sources (@portal/contract included) and the
 * Sentry SDK (BUNDLED_PACKAGES); other packages from node_modules stay imports, installed by
 * `npm ci --omit=dev`. The bundles sit at the same
 * folder depth as apps/api/src, so paths resolved from import.meta.url (the repository root, the
 * migrations) hold in both.
 * With `release` (what `npm run build` passes: package version + git revision, scripts/lib/release.ts), it is
 * compiled in and written beside the bundles as release.json, so a build without .git still knows what it is;
 * without it the server reads its release from the source tree at run time.
 */
export async function compileApi(
  options: { release?: { version: string; revision: string; release: string } } = {},
): Promise<void> {
  // Loaded here: esbuild is a dev dependency of the root, and most callers only need the web build.
  const { build } = await import('esbuild');
  const outDir = path.join(apiDir, 'dist');
  await rm(outDir, { recursive: true, force: true });
  await build(apiBuildOptions(options.release));
  await cp(path.join(apiDir, 'src/db/migrations'), path.join(outDir, 'migrations'), { recursive: true });
  if (options.release)
    await writeFile(path.join(outDir, 'release.json'), `${JSON.stringify(options.release, null, 2)}\n`);
}

/**
 * The folders (under node_modules) of the packages compileApi compiles into the bundles, from esbuild's own
 * account of its inputs; nothing is written. NOTICE and the licence check read them beside the production install.
 */
export async function apiBundledPackageDirs(): Promise<string[]> {
  const { build } = await import('esbuild');
  const result = await build({ ...apiBuildOptions(undefined), write: false, metafile: true, sourcemap: false });
  const dirs = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) dirs.add(path.resolve(REPO_ROOT, match[1]!));
  }
  return [...dirs].sort();
}

/**
 * The folders (under node_modules) of the packages the SPA's bundle carries, as its build listed them
 * (apps/web/build/third-party-packages.ts): they reach every browser, though production installs none of them.
 * Builds the SPA first when its sources changed since the last build.
 */
export async function webBundledPackageDirs(): Promise<string[]> {
  await buildWeb();
  const listed = JSON.parse(
    await readFile(path.join(webDir, 'dist/.vite/third-party-packages.json'), 'utf8'),
  ) as string[];
  return listed.map((dir) => path.resolve(REPO_ROOT, dir));
}

/**
 * Every package production carries without installing it: those compiled into the API's bundles and those in
 * the SPA's bundle. NOTICE and the licence check read them beside the production install (decision 81).
 */
export async function bundledPackageDirs(): Promise<string[]> {
  return [...(await apiBundledPackageDirs()), ...(await webBundledPackageDirs())];
}

export function buildApi(): Promise<BuildOutcome> {
  return buildIfChanged({
    name: 'api',
    root: REPO_ROOT,
    inputs: API_INPUTS,
    output: path.join(apiDir, 'dist/server.js'),
    outputDirs: ['apps/api/dist'],
    build: () => compileApi(),
  });
}
