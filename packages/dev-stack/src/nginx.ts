/**
 * nginx as a foreground child with everything (pid, logs, temp files) under its own folder: no change to the
 * machine's nginx. Used by `npm run start:scaled`, the topology tests and the invoice benchmark.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stopChild, waitForHttp } from './child-process.ts';
import { REPO_ROOT } from './stack.ts';

/** Finds a program on PATH or in the sbin folders, where Debian puts nginx. */
export function locateProgram(program: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const INSTALL_HINT =
  'On Debian/Ubuntu: `apt-get install nginx-light libnginx-mod-http-brotli-static` (or `bash scripts/setup-machine.sh`)';
const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/** What is missing for the nginx the topology suite runs, as a message; undefined when nothing is. */
export function nginxProblem(): string | undefined {
  if (!locateProgram('nginx')) return `nginx is not installed. ${INSTALL_HINT}`;
  if (!existsSync(BROTLI_STATIC_MODULE)) {
    return `nginx's brotli_static module is missing (${BROTLI_STATIC_MODULE}). ${INSTALL_HINT}`;
  }
  return undefined;
}

export function requireNginx(): string {
  const nginx = locateProgram('nginx');
  if (!nginx) throw new Error(`nginx is not installed. ${INSTALL_HINT}`);
  return nginx;
}

/** Fills the ${NAME} placeholders of a template; a placeholder left without a value is a mistake. */
export function fillTemplate(template: string, values: Record<string, string>) {
  return template.replace(/\$\{([A-Z_]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for \${${name}} in the nginx template`);
    return value;
  });
}

/** deploy/nginx/portal.conf.template with the given values, as the production setup fills it. */
export async function renderPortalSite(values: {
  listen: string;
  upstreamServers: string[];
  webRoot: string;
  invoiceDir: string;
  /** Where presigned requests for invoice objects go (the bucket's origin); unused with the folder store. */
  invoiceStoreOrigin?: string;
  maxBody: string;
  /** Where nginx writes its masked access log (a file); `/dev/null` where nobody reads it. */
  accessLog: string;
  /** Where /scim/ is answered from (SCIM_TOKEN_NETWORKS, as the proxy image's entrypoint.sh writes it); unset: any. */
  scimNetworks?: string[];
}) {
  const template = await readFile(path.join(REPO_ROOT, 'deploy/nginx/portal.conf.template'), 'utf8');
  return fillTemplate(template, {
    PORTAL_LISTEN: `  ${values.listen}`,
    PORTAL_UPSTREAM_SERVERS: values.upstreamServers.map((server) => `  ${server}`).join('\n'),
    PORTAL_WEB_ROOT: values.webRoot,
    PORTAL_INVOICE_DIR: values.invoiceDir,
    // Never asked with the folder store; nginx only needs a well-formed origin to start.
    PORTAL_INVOICE_STORE_ORIGIN: values.invoiceStoreOrigin ?? 'http://127.0.0.1:9',
    PORTAL_MAX_BODY: values.maxBody,
    PORTAL_ACCESS_LOG: values.accessLog,
    PORTAL_SCIM_ALLOW: values.scimNetworks
      ? [...values.scimNetworks.map((network) => `    allow ${network};`), '    deny all;'].join('\n')
      : '    # any network',
  });
}

export interface RunningNginx {
  stop(): Promise<void>;
  /** The error log, for a failure message. */
  errorLog: string;
}

/**
 * Runs nginx in the foreground with `httpConfig` inside its http block; waits until `readyUrl` answers.
 * Workers drop to an unprivileged user when started as root: the folders they read must be world-readable.
 */
export async function startNginx(options: { workDir: string; httpConfig: string; readyUrl: string }) {
  const nginx = requireNginx();
  const { workDir } = options;
  await mkdir(workDir, { recursive: true });
  await chmod(workDir, 0o755);
  const brotli = existsSync(BROTLI_STATIC_MODULE);
  if (!brotli) throw new Error(`nginx's brotli_static module is missing (${BROTLI_STATIC_MODULE}). ${INSTALL_HINT}`);
  const errorLog = path.join(workDir, 'error.log');
  const conf = path.join(workDir, 'nginx.conf');
  await writeFile(
    conf,
    `load_module ${BROTLI_STATIC_MODULE};
daemon off;
worker_processes auto;
pid ${workDir}/nginx.pid;
error_log ${errorLog} warn;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  keepalive_requests 100000;
  client_body_temp_path ${workDir}/client_body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;
${options.httpConfig}
}
`,
  );
  const child = spawn(nginx, ['-p', workDir, '-c', conf, '-e', errorLog], { stdio: ['ignore', 'inherit', 'inherit'] });
  try {
    await waitForHttp(options.readyUrl, child, `nginx (see ${errorLog})`, 20_000);
  } catch (error) {
    await stopChild(child, 'SIGQUIT', 5000);
    throw error;
  }
  return { errorLog, stop: () => stopChild(child, 'SIGQUIT', 5000) } satisfies RunningNginx;
}
