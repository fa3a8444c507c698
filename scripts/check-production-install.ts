/**
 * `npm run test:production`: proves the runtime folder — the container image's /app — runs on its own, as the
 * Dockerfile's runtime stage starts it. Builds, assembles the folder with the script the Dockerfile runs
 * (scripts/build-runtime.ts: build output + `npm ci --omit=dev --ignore-scripts`), makes it read-only, and
 * starts the stage's ENTRYPOINT + CMD in it with the stage's ENV, as its USER (when run as root), writing only
 * to a data folder (the image's /data) and a temp folder. Then: the login page's first-load script within its
 * budget, the SBOMs listing exactly the packages installed and bundled, every one under an allowed licence and NOTICE
 * their rendering (decisions 81 and 113), health, readiness, the SPA, the stage's own HEALTHCHECK command, the CLI, an upload stored
 * world-readable for nginx, SIGTERM to Node itself draining and exiting 0. Needs PostgreSQL (the image runs
 * NODE_ENV=production): DATABASE_URL, else the local test database; uses `<name>_production` beside it.
 * Prints the folder's size and start-up time. The emulator host is a dummy: nothing here calls it.
 * `SKIP_BUILD=1` uses the last `npm run build` (as `npm test` does, which builds once for three suites).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { VersionInfo } from '@portal/contract';
import {
  bundledPackageDirs,
  findFreePort,
  freshDatabaseBeside,
  REPO_ROOT,
  requireTestDatabase,
  startSentryReceiver,
  testDatabaseUrl,
  waitForHttp,
} from '@portal/dev-stack';
import { renderDemoInvoicePdf } from '@portal/dev-stack/demo';
import { readDockerfile, stageNamed } from './lib/dockerfile.ts';
import { productionPackages } from './lib/installed-packages.ts';
import { licenceTable, refusedPackages } from './lib/licences.ts';
import { noticePackages, renderNotice } from './lib/notice.ts';
import { LOGIN_FIRST_LOAD_BUDGET_BYTES, loginFirstLoadBytes } from './lib/first-load.ts';
import { currentRelease } from './lib/release.ts';
import { buildRuntimeFolder, typeDeclarationFolders } from './lib/runtime-folder.ts';
import { readReleaseSboms, sbomPackageKeys, sbomSchemaErrors } from './lib/sbom.ts';
import { developmentPackagesAmong, developmentPackagesInNotice } from './lib/development-packages.ts';

const execFileAsync = promisify(execFile);
const SHUTDOWN_GRACE_MS = 1000;
// Made at run time: a token printed here would be one the production server refuses (example-secrets.ts).
const INGEST_TOKEN = randomBytes(32).toString('base64url');

function check(condition: boolean, message: string) {
  if (!condition) throw new Error(message);
  console.log(`ok  ${message}`);
}

// The image runs with NODE_ENV=production, which refuses the embedded database: PostgreSQL, DATABASE_URL else
// the local test database of scripts/setup-machine.sh (unreachable, this stops at once saying so).
const databaseUrl = testDatabaseUrl();
await requireTestDatabase(databaseUrl, 'production');

if (!process.env.SKIP_BUILD) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

const runtime = stageNamed(readDockerfile(), 'runtime');
const root = await mkdtemp(path.join(os.tmpdir(), 'portal-production-'));
// The user the server runs as must reach the folders below.
await chmod(root, 0o755);
const appDir = path.join(root, 'app');
const dataDir = path.join(root, 'data');
const tmpDir = path.join(root, 'tmp');
const [uid, gid] = (runtime.user ?? '').split(':').map(Number);
const asImageUser = process.getuid?.() === 0 && Number.isInteger(uid) && Number.isInteger(gid);

/** The image's paths (WORKDIR /app, the /data volume) as they are here. */
const here = (value: string) =>
  value.replace(/^\/data(?=\/|$)/, dataDir).replace(new RegExp(`^${runtime.workdir ?? '/app'}(?=/|$)`), appDir);

/** A command of the image (exec form), run in the folder as the image's user; `node` is this Node. */
function imageCommand(command: string[], env: NodeJS.ProcessEnv) {
  const [program = '', ...args] = command;
  return {
    program: program === 'node' ? process.execPath : program,
    args,
    options: { cwd: appDir, env, ...(asImageUser ? { uid, gid } : {}) },
  };
}

/**
 * A PUT on a connection of its own: fetch would reuse a pooled one that the server may be closing after its
 * keep-alive timeout (the checks above take seconds), and a PUT is not retried.
 */
function putOnNewConnection(url: string, body: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: 'PUT',
      agent: false,
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The folder's size as a gzipped tar, as an image layer of it is pushed. */
async function gzippedBytes(dir: string): Promise<number> {
  const { stdout } = await execFileAsync('sh', ['-c', 'tar -C "$0" -cf - . | gzip -6 | wc -c', dir]);
  return Number(stdout);
}

let server: ChildProcess | undefined;
// A DSN makes the server load the Sentry SDK compiled into its bundle (decision 81): it must run from there.
const sentry = await startSentryReceiver();
let layerBytes: Promise<number> | undefined;
let builtRelease: VersionInfo = { version: '', revision: '', release: '' };
try {
  const folder = await buildRuntimeFolder(appDir);
  // Measured while the checks below run: it reads the folder only, and takes seconds of one core.
  layerBytes = gzippedBytes(appDir);
  console.log(
    `runtime folder: ${mb(folder.bytes)} MB (${mb(folder.nodeModulesBytes)} MB node_modules), production install ${folder.installSeconds.toFixed(1)} s`,
  );
  check(!existsSync(path.join(appDir, 'node_modules/tsx')), 'no tsx installed');
  check(!existsSync(path.join(appDir, 'node_modules/vite')), 'no Vite installed');
  check(!existsSync(path.join(appDir, 'node_modules/typescript')), 'no TypeScript installed');
  check(!existsSync(path.join(appDir, 'tools/firebase-emulator/node_modules')), 'no firebase-tools installed');
  const typeFolders = typeDeclarationFolders(appDir);
  check(
    typeFolders.length === 0,
    `no @types package installed${typeFolders.length ? `: ${typeFolders.join(', ')}` : ''}`,
  );
  // What production carries from third parties, installed, compiled into the API or bundled into the SPA, as
  // the folders hold them: the witness the SBOMs are held to below.
  const thirdParty = productionPackages(appDir, await bundledPackageDirs());
  const development = developmentPackagesAmong(thirdParty);
  check(
    development.length === 0,
    `no development package (mail catcher, @types) in production${development.length ? `: ${development.join(', ')}` : ''}`,
  );
  const noticeDevelopment = developmentPackagesInNotice(readFileSync(path.join(REPO_ROOT, 'NOTICE'), 'utf8'));
  check(
    noticeDevelopment.length === 0,
    `NOTICE names no development package${noticeDevelopment.length ? `: ${noticeDevelopment.join(', ')}` : ''}`,
  );
  // Decision 113: the SBOMs the build wrote and the image carries are valid CycloneDX and list exactly the
  // third-party packages production carries, NOTICE's list.
  const sbomKeys = new Set<string>();
  const boms = await readReleaseSboms(path.join(appDir, 'apps/api/dist/sbom'));
  for (const part of ['api', 'web'] as const) {
    const bom = boms[part];
    const errors = await sbomSchemaErrors(bom);
    check(
      errors === null,
      `the ${part} SBOM is valid CycloneDX ${bom.specVersion}${errors ? `: ${JSON.stringify(errors)}` : ''}`,
    );
    for (const key of sbomPackageKeys(bom)) sbomKeys.add(key);
  }
  const productionKeys = new Set(thirdParty.map((pkg) => `${pkg.name}@${pkg.version}`));
  const notInSbom = [...productionKeys].filter((key) => !sbomKeys.has(key));
  const notInProduction = [...sbomKeys].filter((key) => !productionKeys.has(key));
  check(
    notInSbom.length === 0 && notInProduction.length === 0,
    `the SBOMs list the ${productionKeys.size} third-party packages production carries, no more${notInSbom.length ? `; missing: ${notInSbom.join(', ')}` : ''}${notInProduction.length ? `; not in production: ${notInProduction.join(', ')}` : ''}`,
  );
  // Decisions 81 and 113: the licences are the SBOMs' as the generator recorded them, held to the allow-list, and
  // NOTICE is the SBOMs' rendering.
  const sbomPackages = noticePackages([boms.api, boms.web]);
  console.log(`third-party packages in production by licence (the SBOMs'):\n${licenceTable(sbomPackages)}`);
  const refused = refusedPackages(sbomPackages);
  check(
    refused.length === 0,
    `all ${sbomPackages.length} third-party packages in production have an allowed licence${refused.length > 0 ? `; not: ${refused.join('; ')}` : ''}`,
  );
  // The presigner signs with the client's middleware: one version of both, as Renovate's AWS SDK group keeps them.
  const awsVersions = new Set(
    thirdParty
      .filter((pkg) => pkg.name === '@aws-sdk/client-s3' || pkg.name === '@aws-sdk/s3-request-presigner')
      .map((pkg) => pkg.version),
  );
  check(awsVersions.size === 1, `the S3 client and its presigner are one version (${[...awsVersions].join(', ')})`);
  check(
    readFileSync(path.join(REPO_ROOT, 'NOTICE'), 'utf8') === renderNotice(sbomPackages),
    "NOTICE is the rendering of the build's SBOMs (else: npm run notice)",
  );
  // What the image sends a first visitor before the login form can draw: the goal of decisions 14 and 41.
  const loginScript = loginFirstLoadBytes(path.join(appDir, 'apps/web/dist'));
  check(
    loginScript <= LOGIN_FIRST_LOAD_BUDGET_BYTES,
    `the login page's first-load script is ${(loginScript / 1024).toFixed(1)} KB brotli, within ${LOGIN_FIRST_LOAD_BUDGET_BYTES / 1024} KB`,
  );
  builtRelease = JSON.parse(readFileSync(path.join(appDir, 'apps/api/dist/release.json'), 'utf8')) as VersionInfo;
  const expected = currentRelease();
  check(
    builtRelease.version === expected.version && builtRelease.revision === expected.revision,
    `the build knows its release (${builtRelease.version}, ${builtRelease.revision.slice(0, 12)})`,
  );

  // A read-only root file system: nothing in the folder may be written, by anyone but root.
  spawnSync('chmod', ['-R', 'a-w', appDir]);
  const listing = () =>
    readdirSync(appDir, { recursive: true })
      .map((entry) => `${entry}:${statSync(path.join(appDir, String(entry))).mtimeMs}`)
      .join('\n');
  const before = listing();
  await mkdir(path.join(dataDir, 'invoices'), { recursive: true });
  await mkdir(tmpDir);
  await chmod(tmpDir, 0o1777);
  if (asImageUser) {
    await chown(dataDir, uid!, gid!);
    await chown(path.join(dataDir, 'invoices'), uid!, gid!);
  }

  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    ...Object.fromEntries(Object.entries(runtime.env).map(([name, value]) => [name, here(value)])),
    TMPDIR: tmpDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: await freshDatabaseBeside(databaseUrl, 'production'),
    // As production runs it: the real Firebase project's keys, which no call of this check needs (the
    // emulator is refused when NODE_ENV is production).
    FIREBASE_PROJECT_ID: 'production-check',
    FIREBASE_API_KEY: 'production-check-web-api-key',
    // Required in production: the passkeys' host is never taken from the request there.
    WEBAUTHN_RP_ID: 'localhost',
    WEBAUTHN_ORIGINS: `http://localhost:${port}`,
    INGEST_TOKEN,
    LOG_LEVEL: 'warn',
    SENTRY_DSN: sentry.dsn,
    // How long the server keeps answering, not ready, after SIGTERM before it drains and exits.
    SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
  };
  const command = [...(runtime.entrypoint ?? []), ...(runtime.cmd ?? [])];
  const start = imageCommand(command, env);
  console.log(`starting ${command.join(' ')} in the folder${asImageUser ? ` as ${runtime.user}` : ''}`);
  const startedAt = performance.now();
  server = spawn(start.program, start.args, { ...start.options, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/readyz`, server, 'The production server');
  console.log(`the server answered after ${((performance.now() - startedAt) / 1000).toFixed(2)} s`);

  const version = await (await fetch(`${url}/api/version`)).json();
  check(
    JSON.stringify(version) === JSON.stringify(builtRelease),
    `/api/version answers the release compiled in (${builtRelease.release})`,
  );
  const health = await fetch(`${url}/api/healthz`);
  check(health.ok && (await health.json()).status === 'ok', '/api/healthz answers ok');
  const login = await fetch(`${url}/login`, { headers: { 'accept-encoding': 'br' } });
  check(login.ok && (await login.text()).includes('<div id="root">'), '/login answers the SPA');
  check(login.headers.get('content-encoding') === 'br', '/login is sent brotli-compressed');
  const map = await fetch(`${url}/assets/index.js.map`);
  check(map.status === 404, 'source maps answer 404');

  const probe = () => {
    const healthcheck = imageCommand(runtime.healthcheck?.command ?? [], { PATH: env.PATH, PORT: env.PORT });
    return spawnSync(healthcheck.program, healthcheck.args, { ...healthcheck.options, timeout: 10_000 }).status;
  };
  check(probe() === 0, "the image's HEALTHCHECK command passes against the running server");

  // Without the DSN: the receiver lives in this process, which spawnSync blocks, so an event the CLI sent would
  // keep its connection, and the CLI, waiting for an answer.
  const cliEnv = Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'SENTRY_DSN'));
  const cli = imageCommand([...(runtime.entrypoint ?? []), 'apps/api/dist/cli.js', 'users', 'list'], cliEnv);
  const listed = spawnSync(cli.program, cli.args, { ...cli.options, encoding: 'utf8', timeout: 60_000 });
  check(
    listed.status === 0,
    `the CLI runs from the folder (users list: exit ${listed.status ?? listed.signal}${listed.status === 0 ? '' : `; ${listed.stderr.slice(-2000)}`})`,
  );

  const pdf = await renderDemoInvoicePdf('PROD000001');
  const uploadStatus = await putOnNewConnection(`${url}/api/invoices/PROD000001`, pdf);
  check(uploadStatus === 201, `an invoice upload is stored in the data folder (HTTP ${uploadStatus})`);
  const stored = readdirSync(path.join(dataDir, 'invoices'), { recursive: true })
    .map((entry) => path.join(dataDir, 'invoices', String(entry)))
    .filter((file) => statSync(file).isFile() && statSync(file).size === pdf.byteLength);
  check(
    stored.length === 1 && (statSync(stored[0]!).mode & 0o004) !== 0,
    'the stored invoice is readable by other users (nginx sends it from the same volume)',
  );
  check(listing() === before, 'nothing in the runtime folder was written');

  // SIGTERM to Node itself, as the container runtime sends it to PID 1: no npm or shell in between.
  server.kill('SIGTERM');
  // The signal reaches the server's loop only once the kernel next runs the server, a request's bytes reach
  // its socket at once: on a busy machine the request can be answered first, ready (a busy-core CI run met
  // that). Asked again until the answer changes, the first other answer must be "not ready", or the server gone.
  const signalled = performance.now();
  let readiness: number | 'gone' = 200;
  while (readiness === 200 && server.exitCode === null && performance.now() - signalled < SHUTDOWN_GRACE_MS + 15_000) {
    readiness = await fetch(`${url}/api/readyz`).then(
      (response) => response.status,
      () => 'gone' as const,
    );
    if (readiness === 200) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  check(
    readiness === 503 || readiness === 'gone',
    `SIGTERM makes the server not ready (${readiness} ${Math.round(performance.now() - signalled)} ms after the signal)`,
  );
  const [code, signal] = await Promise.race([
    exited,
    new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error('the server did not exit after SIGTERM')), SHUTDOWN_GRACE_MS + 15_000),
    ),
  ]);
  check(code === 0, `SIGTERM drains and exits 0 after the grace period (exit ${code ?? signal})`);
  check(probe() !== 0, "the image's HEALTHCHECK command fails once the server is gone");
  console.log(`runtime folder as a gzipped layer: ${mb(await layerBytes)} MB`);
} finally {
  // The folder is removed below: the measurement reading it ends first.
  await layerBytes?.catch(() => {});
  await sentry.close();
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  spawnSync('chmod', ['-R', 'u+w', root]);
  await rm(root, { recursive: true, force: true });
}
