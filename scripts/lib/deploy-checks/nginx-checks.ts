/**
 * The proxy image's nginx, as compose and Kubernetes configure it: deploy/nginx/entrypoint.sh fills the
 * template and runs `nginx -t` with this machine's Debian nginx (the packages the image installs), for the
 * compose settings, compose with TLS, and the Kubernetes settings. Then the compose configuration really
 * serves, as the image's www-data user when run as root, writing only to its run folder. Differences from
 * the image: paths under a temporary folder instead of /etc/nginx/portal and /tmp/nginx, 127.0.0.1 for the
 * instances' host names, and a free port.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmod, chown, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { findFreePort, requireNginx, stopChild, waitForHttp } from '@portal/dev-stack';
import { readEnvFile, readCompose, DEPLOY_DIR } from '../compose.ts';
import { readDockerfile, stageNamed } from '../dockerfile.ts';
import { readManifests } from '../kubernetes.ts';
import type { Check } from './check.ts';

const WWW_DATA = { uid: 33, gid: 33 };

export async function nginxChecks(check: Check) {
  const nginx = requireNginx();
  const root = await mkdtemp(path.join(os.tmpdir(), 'portal-proxy-check-'));
  try {
    await chmod(root, 0o755);
    const home = path.join(root, 'home');
    const run = path.join(root, 'run');
    const web = path.join(root, 'web');
    await mkdir(home);
    await mkdir(run);
    await mkdir(path.join(web, 'assets'), { recursive: true });
    const mainConfig = await readFile(path.join(DEPLOY_DIR, 'nginx/nginx.conf'), 'utf8');
    await writeFile(path.join(home, 'nginx.conf'), mainConfig.replaceAll('/tmp/nginx', run));
    await cp(path.join(DEPLOY_DIR, 'nginx/portal.conf.template'), path.join(home, 'portal.conf.template'));
    const favicon = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    await writeFile(path.join(web, 'favicon.svg'), favicon);
    await writeFile(path.join(web, 'favicon.svg.br'), brotliCompressSync(favicon));
    const tls = path.join(root, 'tls');
    await mkdir(tls);
    const certificate = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        path.join(tls, 'privkey.pem'),
        '-out',
        path.join(tls, 'fullchain.pem'),
      ],
      { stdio: 'ignore' },
    );
    if (certificate.status !== 0)
      throw new Error('openssl could not make a test certificate (apt-get install openssl)');

    const imageEnv = stageNamed(readDockerfile(), 'proxy').env;
    const composeValues = readEnvFile(path.join(DEPLOY_DIR, 'compose.env.example'));
    const strings = (environment: Record<string, string | number> = {}) =>
      Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, String(value)]));
    const composeEnv = readCompose(path.join(DEPLOY_DIR, 'compose.yaml'), composeValues).services.proxy?.environment;
    const tlsEnv = readCompose(path.join(DEPLOY_DIR, 'compose.tls.yaml'), composeValues).services.proxy?.environment;
    const proxyDeployment = readManifests('proxy-deployment.yaml')[0]?.object as unknown as IDeployment;
    const kubernetesEnv = Object.fromEntries(
      (proxyDeployment.spec?.template.spec?.containers[0]?.env ?? []).map((entry) => [entry.name, entry.value ?? '']),
    );
    const here = (values: Record<string, string>) => ({
      ...values,
      PORTAL_WEB_ROOT: web,
      PORTAL_INVOICE_DIR: path.join(root, 'invoices'),
      PORTAL_UPSTREAM_SERVERS: values.PORTAL_UPSTREAM_SERVERS!.replace(/server [\w.-]+:/g, 'server 127.0.0.1:'),
      PORTAL_LISTEN: values.PORTAL_LISTEN!.replaceAll('/etc/nginx/tls', tls),
    });
    const entrypoint = (values: Record<string, string>, args: string[], asUser = false) => ({
      command: path.join(DEPLOY_DIR, 'nginx/entrypoint.sh'),
      args,
      options: {
        env: {
          PATH: `${path.dirname(nginx)}:${process.env.PATH}`,
          PORTAL_NGINX_HOME: home,
          PORTAL_NGINX_RUN: run,
          ...values,
        },
        ...(asUser && process.getuid?.() === 0 ? WWW_DATA : {}),
      },
    });
    const variants: [string, Record<string, string>][] = [
      ['compose', here({ ...imageEnv, ...strings(composeEnv) })],
      ['compose with TLS', here({ ...imageEnv, ...strings(composeEnv), ...strings(tlsEnv) })],
      ['Kubernetes', here({ ...imageEnv, ...kubernetesEnv })],
    ];
    for (const [name, values] of variants) {
      const test = entrypoint(values, ['-t']);
      const result = spawnSync(test.command, test.args, { ...test.options, encoding: 'utf8' });
      check(
        result.status === 0,
        `nginx: the proxy image's configuration as ${name} sets it passes nginx -t`,
        [result.stderr.trim()].filter(Boolean).slice(0, result.status === 0 ? 0 : 1),
      );
    }

    const port = await findFreePort();
    const [, composeValuesHere] = variants[0]!;
    if (process.getuid?.() === 0) {
      // As in the image: www-data owns only what nginx writes (its run folder).
      await rm(run, { recursive: true });
      await mkdir(run);
      await chown(run, WWW_DATA.uid, WWW_DATA.gid);
    }
    const serve = entrypoint({ ...composeValuesHere, PORTAL_LISTEN: `listen 127.0.0.1:${port};` }, [], true);
    const child = spawn(serve.command, serve.args, { ...serve.options, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const what = `nginx: the compose configuration serves the SPA's files pre-compressed${process.getuid?.() === 0 ? ', running as www-data' : ''}`;
    try {
      await waitForHttp(`http://127.0.0.1:${port}/favicon.svg`, child, 'nginx of the proxy image', 20_000);
      const response = await fetch(`http://127.0.0.1:${port}/favicon.svg`, { headers: { 'accept-encoding': 'br' } });
      check(
        response.headers.get('content-encoding') === 'br' && (await response.text()) === favicon,
        what,
        errors ? [errors.trim()] : [],
      );
    } catch (error) {
      check(false, what, [(error as Error).message, errors.trim()]);
    } finally {
      await stopChild(child, 'SIGQUIT', 5000);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
