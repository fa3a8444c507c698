/**
 * The production topology on one machine: the Auth emulator, the demo data on PostgreSQL, N instances of the
 * compiled API (as `npm run serve` runs it) sharing one invoice store, and nginx in front
 * (deploy/nginx/portal.conf.template). `npm run start:scaled`, the topology tests and the benchmark use it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { findFreePort, startAuthEmulator, type AuthEmulator } from './auth-emulator.ts';
import { stopChild, waitForHttp } from './child-process.ts';
import { requireNginxCanRead, nginxWorkerAccount } from './nginx-access.ts';
import { renderPortalSite, requireNginx, startNginx } from './nginx.ts';
import { startObjectStore, type ObjectStore } from './object-store.ts';
import { DEMO_PROJECT_ID, REPO_ROOT } from './stack.ts';

export interface TopologyOptions {
  /** nginx's port. */
  port: number;
  instances: number;
  databaseUrl: string;
  /** Everything of this run: emulator, nginx's files, and the invoice store unless `invoiceDir` is given. */
  workDir: string;
  /**
   * The shared invoice store; give one that outlives the run when the database does (the database's rows
   * name blobs in it).
   */
  invoiceDir?: string;
  /**
   * `object`: invoices in a local S3-compatible bucket (started here, its data under workDir), sent by nginx
   * from presigned requests; `folder` (default): the shared folder.
   */
  invoiceStore?: 'folder' | 'object';
  emulatorPort?: number;
  /** Extra environment for every instance (e.g. rate limits, LOG_LEVEL). */
  env?: Record<string, string>;
  /** Extra environment for one instance (by index from 0): e.g. another release's SPA (WEB_DIST_DIR). */
  instanceEnv?: (index: number) => Record<string, string>;
  /** Extra Node.js options for every instance (e.g. --cpu-prof to profile them under load). */
  nodeArgs?: string[];
  log?: (line: string) => void;
  /** Called when an instance exits without being asked to. */
  onInstanceExit?: (index: number, code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface ApiInstance {
  url: string;
  process: ChildProcess;
}

export interface Topology {
  url: string;
  /** nginx's access log (one line per request, the instances' statuses) and its error log, for a failure's report. */
  nginxLogs: { access: string; error: string };
  emulator: AuthEmulator;
  instances: ApiInstance[];
  invoiceDir: string;
  /** The local bucket, when the invoices are in one. */
  objectStore?: ObjectStore;
  /** The environment the instances run with, for a CLI or seed against the same data. */
  env: NodeJS.ProcessEnv;
  /** The demo admin's one-time code for a first passkey, as the seed issued it. */
  demoAdminEnrollment: { code: string; expiresAt: string } | undefined;
  stop(): Promise<void>;
}

/** `npm run build`: the SPA with its .br/.gz twins and the compiled API, what the topology runs. */
export function buildAll() {
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed (see the output above)');
}

const WEB_ROOT = path.join(REPO_ROOT, 'apps/web/dist');

/** Throws NginxCannotReadError, saying what to change, when nginx's workers could not send the SPA or invoices. */
export function requireNginxCanReadTopology(invoiceDir: string) {
  requireNginxCanRead(nginxWorkerAccount(requireNginx()), [
    { what: 'The built SPA', path: WEB_ROOT, setting: 'use a checkout in a folder other users may pass through' },
    { what: 'The built SPA', path: path.join(WEB_ROOT, 'index.html'), setting: 'build it with umask 022' },
    {
      what: 'The invoice store',
      path: invoiceDir,
      setting: 'INVOICE_DIR=<a folder outside, e.g. /srv/portal-invoices>',
    },
  ]);
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    stops.length = 0;
  };
  try {
    const invoiceDir = options.invoiceDir ?? path.join(options.workDir, 'invoices');
    await mkdir(invoiceDir, { recursive: true });
    // nginx's workers read the store as an unprivileged user.
    for (const dir of [options.workDir, invoiceDir]) await chmod(dir, 0o755);
    // Before anything starts: a worker that cannot read these answers 403, and nothing else would say why.
    requireNginxCanReadTopology(invoiceDir);
    const emulator = await startAuthEmulator({
      port: options.emulatorPort ?? (await findFreePort()),
      projectId: DEMO_PROJECT_ID,
      workDir: path.join(options.workDir, 'emulator'),
    });
    stops.push(() => emulator.stop());
    let objectStore: ObjectStore | undefined;
    if (options.invoiceStore === 'object') {
      objectStore = await startObjectStore({ dataDir: path.join(options.workDir, 'object-store') });
      const started = objectStore;
      stops.push(() => started.stop());
      // The seed below runs in this process, and the AWS SDK reads its keys from the environment.
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_EC2_METADATA_DISABLED']) {
        process.env[name] = objectStore.env[name];
      }
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // Not production: production mode refuses the Auth emulator (it accepts unsigned tokens). INSTANCES
      // above 1 refuses the embedded database all the same.
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: path.join(options.workDir, 'data'),
      INVOICE_DIR: invoiceDir,
      INVOICE_DELIVERY: 'x-accel-redirect',
      INSTANCES: String(options.instances),
      // The instances listen on 127.0.0.1 and only nginx, on this machine, talks to them.
      TRUST_PROXY: '127.0.0.1,::1',
      FIREBASE_PROJECT_ID: DEMO_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      LOG_LEVEL: 'warn',
      // Passkeys need a host name, never an IP address: an admin opens the admin page at http://localhost.
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGINS: `http://localhost:${options.port}`,
      ...objectStore?.env,
      ...options.env,
    };
    const { seedDemoDataFromEnv } = await import('./demo/seed.ts');
    const { adminEnrollment: demoAdminEnrollment } = await seedDemoDataFromEnv(env);
    options.log?.('demo data seeded');

    // All at once, as an orchestrator would start them: the migration lock makes that safe.
    const instances = await Promise.all(
      Array.from({ length: options.instances }, async (_unused, index) => {
        const port = await findFreePort();
        const child = spawn(
          process.execPath,
          [...(options.nodeArgs ?? []), '--enable-source-maps', path.join(REPO_ROOT, 'apps/api/dist/server.js')],
          {
            cwd: REPO_ROOT,
            env: { ...env, ...options.instanceEnv?.(index), PORT: String(port) },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let stopping = false;
        stops.push(async () => {
          stopping = true;
          await stopChild(child);
        });
        // Its own last lines, for the error should it exit before it is ready.
        const lastLines: string[] = [];
        for (const stream of [child.stdout, child.stderr]) {
          stream?.on('data', (chunk: Buffer) => {
            const text = chunk.toString().trimEnd();
            lastLines.push(text);
            if (lastLines.length > 20) lastLines.shift();
            options.log?.(`[api ${index + 1}] ${text}`);
          });
        }
        child.once('exit', (code, signal) => {
          if (!stopping) options.onInstanceExit?.(index, code, signal);
        });
        const url = `http://127.0.0.1:${port}`;
        await waitForHttp(`${url}/api/readyz`, child, `API instance ${index + 1}`).catch((error: Error) => {
          throw new Error(`${error.message} on port ${port}; its last output:\n${lastLines.join('\n')}`);
        });
        return { url, process: child } satisfies ApiInstance;
      }),
    );

    const url = `http://127.0.0.1:${options.port}`;
    const accessLog = path.join(options.workDir, 'nginx-access.log');
    const site = await renderPortalSite({
      listen: `listen 127.0.0.1:${options.port};`,
      upstreamServers: instances.map((instance) => `server ${new URL(instance.url).host} max_fails=1 fail_timeout=5s;`),
      webRoot: WEB_ROOT,
      invoiceDir,
      ...(objectStore ? { invoiceStoreOrigin: objectStore.endpoint } : {}),
      maxBody: '10m',
      accessLog,
    });
    const nginx = await startNginx({
      workDir: path.join(options.workDir, 'nginx'),
      httpConfig: site,
      readyUrl: `${url}/api/healthz`,
    });
    stops.push(() => nginx.stop());
    return {
      url,
      nginxLogs: { access: accessLog, error: nginx.errorLog },
      emulator,
      instances,
      invoiceDir,
      ...(objectStore ? { objectStore } : {}),
      env,
      demoAdminEnrollment,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
