/**
 * `npm run test:changed`: the checks a change touches, for the inner loop; `npm test` stays what CI runs.
 * The change is every file that differs from `TEST_CHANGED_BASE` (default main: committed on this branch,
 * staged, unstaged or new). It runs, one after another:
 * - ESLint and Prettier on the changed files, and the type check of each workspace they are in;
 * - the API test files related to the change (scripts/lib/related-tests.ts), on PGlite, the `.stores` ones on
 *   the object store too, and on PostgreSQL when DATABASE_URL is set and the change reaches the database
 *   (src/db, a migration) or a selected file is tagged `.databases` or `.postgres`;
 * - the web component tests Vitest relates to the change (`vitest run --changed`);
 * - the deploy checks when deploy/, the Dockerfile or the nginx template change; the alert rules when the
 *   monitoring files change; the dev stack's tests (links, licences, releases) when the docs, scripts or
 *   package files change.
 * It names the browser specs and suites it leaves to `npm test` (docs/testing.md, "What to run when").
 * `npm run test:changed -- --dry-run` prints the commands without running them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { relatedTests } from './lib/related-tests.ts';
import { TYPESCRIPT_PROJECTS } from './lib/typescript-projects.ts';

const root = path.resolve(import.meta.dirname, '..');
const base = process.env.TEST_CHANGED_BASE ?? 'main';
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');

const mergeBase = git('merge-base', base, 'HEAD')[0] ?? base;
const changed = [
  ...new Set([...git('diff', '--name-only', mergeBase), ...git('ls-files', '--others', '--exclude-standard')]),
].filter((file) => existsSync(path.join(root, file)));

if (changed.length === 0) {
  process.stdout.write(`test:changed: nothing differs from ${base}\n`);
  process.exit(0);
}
process.stdout.write(`test:changed: ${changed.length} files differ from ${base}\n`);

const dryRun = process.argv.includes('--dry-run');
const steps: { name: string; ok: boolean; seconds: number }[] = [];
function step(name: string, command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  process.stdout.write(`\n=== ${name}: ${command} ${args.join(' ')}\n`);
  if (dryRun) return;
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, stdio: 'inherit', env: options.env });
  steps.push({ name, ok: result.status === 0, seconds: (performance.now() - started) / 1000 });
}
const under = (folder: string) => changed.filter((file) => file.startsWith(folder));
const matches = (pattern: RegExp) => changed.some((file) => pattern.test(file));

const lintable = changed.filter((file) => /\.(c|m)?(t|j)sx?$/.test(file));
if (lintable.length > 0) step('lint', 'npx', ['eslint', '--max-warnings=0', ...lintable]);
step('format', 'npx', ['prettier', '--check', '--ignore-unknown', ...changed]);

// A package's change can break the type check of whatever imports it.
const typecheck = matches(/^packages\//)
  ? TYPESCRIPT_PROJECTS
  : TYPESCRIPT_PROJECTS.filter((workspace) => under(`${workspace}/`).some((file) => /\.tsx?$/.test(file)));
if (typecheck.length > 0)
  step(`typecheck ${typecheck.join(', ')}`, 'npx', ['tsx', 'scripts/typecheck.ts', ...typecheck]);

const apiTests = ['src', 'test'].flatMap((folder) =>
  readdirSync(path.join(root, 'apps/api', folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `apps/api/${folder}/${file}`)
    .sort(),
);
const apiRelated = relatedTests(root, apiTests, changed);
if (apiRelated.length > 0) {
  const tagged = apiRelated.some((file) => /\.(databases|postgres)\./.test(file));
  const onPostgres =
    Boolean(process.env.DATABASE_URL) && (tagged || matches(/^apps\/api\/src\/db\//) || matches(/migrations/));
  step(
    `API tests (${apiRelated.length} files)`,
    'npx',
    ['tsx', 'test/run.ts', ...apiRelated.map((file) => path.relative('apps/api', file))],
    {
      cwd: path.join(root, 'apps/api'),
      env: {
        ...process.env,
        API_TEST_PASSES: onPostgres ? 'pglite,object,postgres' : 'pglite,object',
        API_TEST_BATCH: process.env.API_TEST_BATCH ?? '16',
      },
    },
  );
}

if (matches(/^(apps\/web|packages\/contract)\//))
  step('web component tests', 'npx', ['vitest', 'run', '--changed', mergeBase, '--passWithNoTests'], {
    cwd: path.join(root, 'apps/web'),
  });
if (
  matches(
    /^(deploy\/|Dockerfile|\.dockerignore|scripts\/test-deploy\.ts|scripts\/lib\/(deploy-checks|kubernetes|compose|dockerfile))/,
  )
)
  step('deploy checks', 'npm', ['run', 'test:deploy']);
if (
  matches(
    /^(deploy\/monitoring|deploy\/kubernetes-components|docs\/operations\.md|scripts\/(test-alerts|monitoring-rules)\.ts|apps\/api\/src\/observability\/)/,
  )
)
  step('alert rules', 'npm', ['run', 'test:alerts']);
if (matches(/(\.md$|^docs\/|^scripts\/|package(-lock)?\.json$|^packages\/dev-stack\/)/))
  step("dev stack's tests", 'npm', ['run', 'test:dev-stack']);

const leftToNpmTest: string[] = [];
if (matches(/^(README\.md|deploy\/README\.md|docs\/operations\.md|docs\/product\/)/))
  leftToNpmTest.push('npm run test:docs (a page with commands changed)');
if (matches(/^(apps\/web\/src|e2e\/)/))
  leftToNpmTest.push('the browser specs of the screens changed (npm run test:e2e)');
if (matches(/^(Dockerfile|scripts\/(build|build-runtime|check-production-install|test-topology)\.ts|deploy\/nginx)/))
  leftToNpmTest.push('npm run test:production and npm run test:topology');

process.stdout.write('\n');
for (const { name, ok, seconds } of steps)
  process.stdout.write(`# ${ok ? 'passed' : 'FAILED'} ${name} (${seconds.toFixed(1)} s)\n`);
for (const line of leftToNpmTest) process.stdout.write(`# not run here: ${line}\n`);
process.exit(steps.every(({ ok }) => ok) ? 0 : 1);
