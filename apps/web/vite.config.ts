import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { FRAMEWORK_CHUNK, frameworkChunkCheck, inFrameworkChunk } from './build/framework-chunk.ts';
import { productionAssets } from './build/production-assets.ts';
import { sentrySourceMaps } from './build/sentry-source-maps.ts';
import { signedInPreload } from './build/signed-in-preload.ts';
import { thirdPartyPackages } from './build/third-party-packages.ts';
import { dropUnusedUtilities } from './build/unused-utilities.ts';
import { TEST_TIMEOUT_MS } from './src/testing/time-limits.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    signedInPreload(),
    frameworkChunkCheck(),
    thirdPartyPackages({ root: fileURLToPath(new URL('../..', import.meta.url)) }),
    ...(command === 'build' ? sentrySourceMaps() : []),
    productionAssets({ sourceMapsDir: fileURLToPath(new URL('./dist-sourcemaps', import.meta.url)) }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // Hidden: the maps exist for error reporting but no served file points at them.
  build: {
    sourcemap: 'hidden',
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // Rolldown warns about slow plugins when a build is slow, which on a shared, busy machine says
      // nothing about the plugins; bench:bundle and the build's own time are where build speed is watched.
      checks: { bundlerTimings: false },
      output: {
        // What every page starts with, in one file (src/lib/first-load-plan.ts says what): the libraries and
        // the small app modules the lazily loaded screens share with the first page. One request (with its
        // headers) instead of half a dozen.
        codeSplitting: {
          groups: [{ name: FRAMEWORK_CHUNK, test: (id) => inFrameworkChunk(root, id) }],
        },
      },
    },
  },
  // Bootstrap 5.3's Sass still uses @import and the global colour functions: its own warnings, not ours.
  css: {
    // The built stylesheet: the utility classes the app's sources and react-bootstrap's components name, and no
    // others. The dev server keeps them all: its sources change while it runs, and a class a screen starts
    // using must be there without a restart.
    postcss: {
      plugins:
        command === 'build'
          ? [
              dropUnusedUtilities([
                `${root}src/**/*.{ts,tsx,js,css,scss}`,
                `${root}index.html`,
                `${path.dirname(createRequire(import.meta.url).resolve('react-bootstrap/esm/index.js'))}/**/*.js`,
              ]),
            ]
          : [],
    },
    preprocessorOptions: {
      scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] },
    },
  },
  // `npm run dev` says where its API listens; by hand, the API of `npm start`.
  server: {
    proxy: {
      '/api': process.env.PORTAL_API_URL ?? 'http://localhost:8080',
      '/config.json': process.env.PORTAL_API_URL ?? 'http://localhost:8080',
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
    // One worker per core (Vitest keeps one core for itself by default: one worker on these 2-core machines),
    // and test files share a worker's jsdom and modules instead of setting both up again per file: 59 s → 17 s.
    // Each file's MSW handlers, mocks and rendered trees are reset after every test (src/testing/setup.ts).
    maxWorkers: availableParallelism(),
    isolate: false,
    // Sized to a test's work, with the suite's other limits: src/testing/time-limits.ts.
    testTimeout: TEST_TIMEOUT_MS,
  },
}));
