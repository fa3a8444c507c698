// Builds skipped when their inputs are unchanged, and the build cache that lets another checkout of the same
// sources copy a build instead of making it: never for changed sources, never from a half-written entry.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { webBuildEnvironment } from './builds.ts';
import { buildIfChanged } from './input-hash.ts';

let workDir: string;
let cacheDir: string;
const savedCacheSetting = process.env.PORTAL_BUILD_CACHE_DIR;

before(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'input-hash-test-'));
});
after(async () => {
  if (savedCacheSetting === undefined) delete process.env.PORTAL_BUILD_CACHE_DIR;
  else process.env.PORTAL_BUILD_CACHE_DIR = savedCacheSetting;
  await rm(workDir, { recursive: true, force: true });
});
beforeEach(async () => {
  cacheDir = await mkdtemp(path.join(workDir, 'cache-'));
  process.env.PORTAL_BUILD_CACHE_DIR = cacheDir;
});

/** A checkout of its own with one source file; its build writes out/result.txt from that source. */
async function checkout(source: string, environment?: Record<string, string>) {
  const root = await mkdtemp(path.join(workDir, 'checkout-'));
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'src/input.txt'), source);
  const builds: string[] = [];
  const build = () =>
    buildIfChanged({
      name: 'thing',
      root,
      inputs: ['src'],
      ...(environment ? { environment } : {}),
      output: path.join(root, 'out/result.txt'),
      outputDirs: ['out'],
      build: async () => {
        const input = await readFile(path.join(root, 'src/input.txt'), 'utf8');
        await mkdir(path.join(root, 'out'), { recursive: true });
        await writeFile(path.join(root, 'out/result.txt'), `built from ${input}`);
        builds.push(input);
      },
    });
  const result = () => readFile(path.join(root, 'out/result.txt'), 'utf8');
  return { root, build, builds, result };
}

test('a second checkout of the same sources copies the first one’s build instead of building', async () => {
  const first = await checkout('version 1');
  assert.equal(await first.build(), 'built');
  assert.equal(await first.build(), 'unchanged');

  const second = await checkout('version 1');
  assert.equal(await second.build(), 'from the build cache');
  assert.deepEqual(second.builds, []);
  assert.equal(await second.result(), 'built from version 1');
  // Recorded like a build of its own: the next start does not even copy.
  assert.equal(await second.build(), 'unchanged');
});

test('changed sources are built, never served from the cache of other sources', async () => {
  const first = await checkout('version 1');
  await first.build();
  const changed = await checkout('version 2');
  assert.equal(await changed.build(), 'built');
  assert.equal(await changed.result(), 'built from version 2');

  // And a checkout whose source changes after its own build builds again too.
  await writeFile(path.join(first.root, 'src/input.txt'), 'version 3');
  assert.equal(await first.build(), 'built');
  assert.equal(await first.result(), 'built from version 3');
});

test('an entry cut short while it was written (no completion mark) is not restored', async () => {
  const first = await checkout('version 1');
  await first.build();
  const [entry] = (await readdir(cacheDir)).filter((name) => name.startsWith('thing-'));
  assert.ok(entry);
  await rm(path.join(cacheDir, entry, 'complete'));
  await writeFile(path.join(cacheDir, entry, 'output/out/result.txt'), 'half written');

  const second = await checkout('version 1');
  assert.equal(await second.build(), 'built');
  assert.equal(await second.result(), 'built from version 1');
});

test('PORTAL_BUILD_CACHE_DIR=off keeps no cache', async () => {
  process.env.PORTAL_BUILD_CACHE_DIR = 'off';
  const first = await checkout('version 1');
  await first.build();
  const second = await checkout('version 1');
  assert.equal(await second.build(), 'built');
  assert.equal((await readdir(cacheDir)).length, 0);
});

test('the cache keeps the builds used last and drops the older ones', async () => {
  for (let version = 1; version <= 6; version++) await (await checkout(`version ${version}`)).build();
  const entries = (await readdir(cacheDir)).filter((name) => name.startsWith('thing-'));
  assert.equal(entries.length, 4);
  assert.deepEqual(
    (await readdir(cacheDir)).filter((name) => name.endsWith('.partial')),
    [],
  );
  // The newest is among them: a checkout of it copies.
  assert.equal(await (await checkout('version 6')).build(), 'from the build cache');
});

test('a build made with other public settings (VITE_*) is built, never copied or kept', async () => {
  const withOneSetting = await checkout('version 1', webBuildEnvironment({ VITE_FEATURE: 'one' }));
  assert.equal(await withOneSetting.build(), 'built');
  const withAnother = await checkout('version 1', webBuildEnvironment({ VITE_FEATURE: 'two' }));
  assert.equal(await withAnother.build(), 'built');
  const without = await checkout('version 1', webBuildEnvironment({}));
  assert.equal(await without.build(), 'built');
  // The same settings again: the build cache serves it.
  assert.equal(
    await (await checkout('version 1', webBuildEnvironment({ VITE_FEATURE: 'two' }))).build(),
    'from the build cache',
  );
});

test("the SPA's build key reads VITE_* and the source-map upload's settings, nothing else, and no token", () => {
  assert.deepEqual(
    webBuildEnvironment({
      VITE_API_HINT: 'a',
      VITE_EMPTY: '',
      PATH: '/usr/bin',
      HOME: '/root',
      SENTRY_ORG: 'org',
      SENTRY_AUTH_TOKEN: 'sntrys_secret',
      PORTAL_RELEASE: '1.4.0+abc',
    }),
    { VITE_API_HINT: 'a', VITE_EMPTY: '', SENTRY_ORG: 'org', SENTRY_AUTH_TOKEN: 'set', PORTAL_RELEASE: '1.4.0+abc' },
  );
});

test('a build with work that finishes later is usable at once, cached only once finished, and finished by the next run when cut short', async () => {
  const root = await mkdtemp(path.join(workDir, 'checkout-'));
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'src/input.txt'), 'version 1');
  const builds: string[] = [];
  const finishes: ((outcome: 'done' | 'failed') => void)[] = [];
  const build = () =>
    buildIfChanged({
      name: 'thing',
      root,
      inputs: ['src'],
      output: path.join(root, 'out/result.txt'),
      outputDirs: ['out'],
      build: async () => {
        await mkdir(path.join(root, 'out'), { recursive: true });
        await writeFile(path.join(root, 'out/result.txt'), 'built');
        builds.push('built');
      },
      finish: () =>
        new Promise<void>((resolve, reject) =>
          finishes.push((outcome) => (outcome === 'done' ? resolve() : reject(new Error('cut short')))),
        ),
    });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
  const cachedEntries = async () => (await readdir(cacheDir)).filter((name) => name.startsWith('thing-'));

  assert.equal(await build(), 'built');
  assert.equal(finishes.length, 1, 'the finishing work starts with the build');
  assert.deepEqual(await cachedEntries(), [], 'not cached before it is finished');
  finishes[0]!('failed');
  await settle();
  // Cut short: the next run does not build again, it finishes.
  assert.equal(await build(), 'unchanged');
  assert.deepEqual(builds, ['built']);
  assert.equal(finishes.length, 2);
  finishes[1]!('done');
  await settle();
  assert.equal((await cachedEntries()).length, 1);
  // Finished: nothing more to do.
  assert.equal(await build(), 'unchanged');
  assert.equal(finishes.length, 2);
});
