/**
 * The proxy image's nginx, as compose and Kubernetes configure it: deploy/nginx/entrypoint.sh fills the
 * template and runs `nginx -t` with this machine's Debian nginx (the packages the image installs), for the
 * compose settings, compose with TLS, and the Kubernetes settings. Then the compose configuration really
 * serves, as the image's www-data user when run as root, writing only to its run folder: its instances are
 * every address of a DNS name, read again while it runs; a file of another release is found on an instance;
 * with no instance reachable it answers the portal's 503 JSON and page. Differences from the image: paths
 * under a temporary folder instead of /etc/nginx/portal and /tmp/nginx, a getent of its own for the DNS name
 * (addresses 127.0.0.1 and 127.0.0.2), and free ports.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { chmod, chown, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import {
  blockedOnTheWay,
  copyForOtherUsers,
  findFreePort,
  requireNginx,
  stopChild,
  waitForHttp,
} from '@portal/dev-stack';
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
    // What runs as www-data is read from here, never from the checkout, which may be in a folder only its
    // owner may enter; this folder, though, must let www-data pass.
    const blocked = process.getuid?.() === 0 && blockedOnTheWay({ name: 'www-data', uid: 33, gids: [33] }, root);
    if (blocked)
      throw new Error(
        `The proxy check runs nginx as www-data in ${root}, which it may not enter at ${blocked.path} (${blocked.mode}): set TMPDIR to a folder other users may pass through.`,
      );
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
    // The instances' DNS name answers what `peers` holds: a getent of the test's own stands in for the
    // resolver (compose's, or the cluster's for the headless Service), so the addresses can change under nginx.
    const bin = path.join(root, 'bin');
    const peers = path.join(root, 'peers');
    await mkdir(bin, { mode: 0o755 });
    const entrypointCopy = await copyForOtherUsers(path.join(DEPLOY_DIR, 'nginx/entrypoint.sh'), bin);
    await writeFile(
      path.join(bin, 'getent'),
      `#!/bin/sh\n[ "$1" = ahosts ] || exit 2\nwhile read -r address; do echo "$address STREAM $2"; done < '${peers}'\n`,
    );
    await chmod(path.join(bin, 'getent'), 0o755);
    await writeFile(peers, '127.0.0.1\n');
    await chmod(peers, 0o644);
    const instancePort = await findFreePort();
    const here = (values: Record<string, string>) => ({
      ...values,
      PORTAL_WEB_ROOT: web,
      PORTAL_INVOICE_DIR: path.join(root, 'invoices'),
      ...(values.PORTAL_UPSTREAM_SERVERS
        ? { PORTAL_UPSTREAM_SERVERS: values.PORTAL_UPSTREAM_SERVERS.replace(/server [\w.-]+:/g, 'server 127.0.0.1:') }
        : {}),
      ...(values.PORTAL_UPSTREAM_RESOLVE
        ? { PORTAL_UPSTREAM_RESOLVE: values.PORTAL_UPSTREAM_RESOLVE.replace(/:\d+$/, `:${instancePort}`) }
        : {}),
      PORTAL_LISTEN: values.PORTAL_LISTEN!.replaceAll('/etc/nginx/tls', tls),
    });
    const entrypoint = (values: Record<string, string>, args: string[], asUser = false) => ({
      command: entrypointCopy,
      args,
      options: {
        env: {
          PATH: `${bin}:${path.dirname(nginx)}:${process.env.PATH}`,
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
      // Its output not captured: the access log opens /dev/stdout, which a container's runtime gives as a pipe or
      // a file, and Node's capture as a socket, which cannot be opened by name.
      const result = spawnSync(test.command, test.args, {
        ...test.options,
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      check(
        result.status === 0,
        `nginx: the proxy image's configuration as ${name} sets it passes nginx -t`,
        [result.stderr.trim()].filter(Boolean).slice(0, result.status === 0 ? 0 : 1),
      );
    }

    // A name with IPv6 addresses too (a dual-stack cluster): each becomes an upstream line, in brackets.
    await writeFile(peers, '127.0.0.1\nfd00::a\n');
    const dualStack = entrypoint(here({ ...imageEnv, ...kubernetesEnv }), ['-t']);
    const dualStackResult = spawnSync(dualStack.command, dualStack.args, {
      ...dualStack.options,
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const dualStackConfig = await readFile(path.join(run, 'portal.conf'), 'utf8');
    check(
      dualStackResult.status === 0 &&
        /server 127\.0\.0\.1:\d+ /.test(dualStackConfig) &&
        /server \[fd00::a\]:\d+ /.test(dualStackConfig),
      "nginx: the instances' IPv4 and IPv6 addresses both become upstream servers, and nginx -t takes them",
      dualStackResult.status === 0 ? [] : [dualStackResult.stderr.trim()],
    );
    await writeFile(peers, '127.0.0.1\n');

    // The directory's networks (the instances' SCIM_TOKEN_NETWORKS) become /scim/'s allow lines; anything but
    // addresses stops the proxy rather than reaching nginx's configuration.
    const withScimNetworks = (networks: string) =>
      entrypoint(here({ ...imageEnv, ...kubernetesEnv, SCIM_TOKEN_NETWORKS: networks }), ['-t']);
    const narrowed = withScimNetworks('20.36.0.0/14, 2603:1000::/24');
    const narrowedResult = spawnSync(narrowed.command, narrowed.args, {
      ...narrowed.options,
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const scimLocation = /location \/scim\/ \{([^}]*)\}/.exec(
      await readFile(path.join(run, 'portal.conf'), 'utf8'),
    )?.[1];
    const allowsTheNetworks =
      narrowedResult.status === 0 &&
      /allow 20\.36\.0\.0\/14;\s+allow 2603:1000::\/24;\s+deny all;/.test(scimLocation ?? '');
    check(
      allowsTheNetworks,
      "nginx: SCIM_TOKEN_NETWORKS becomes /scim/'s allow lines (then deny all), and nginx -t passes",
      allowsTheNetworks ? [] : [narrowedResult.stderr.trim(), scimLocation ?? 'no location /scim/'],
    );
    const injected = withScimNetworks('10.0.0.0/8; return 200');
    const injectedResult = spawnSync(injected.command, injected.args, {
      ...injected.options,
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const stopped =
      injectedResult.status !== 0 && /SCIM_TOKEN_NETWORKS must be addresses or networks/.test(injectedResult.stderr);
    check(
      stopped,
      'nginx: a SCIM_TOKEN_NETWORKS that is not addresses or networks stops the proxy, never written into nginx',
      stopped ? [] : [`exit ${injectedResult.status}`, injectedResult.stderr.trim()],
    );

    const port = await findFreePort();
    const [, composeValuesHere] = variants[0]!;
    if (process.getuid?.() === 0) {
      // As in the image: www-data owns only what nginx writes (its run folder).
      await rm(run, { recursive: true });
      await mkdir(run);
      await chown(run, WWW_DATA.uid, WWW_DATA.gid);
    }
    const serve = entrypoint(
      { ...composeValuesHere, PORTAL_LISTEN: `listen 127.0.0.1:${port};`, PORTAL_UPSTREAM_RESOLVE_SECONDS: '1' },
      [],
      true,
    );
    const child = spawn(serve.command, serve.args, { ...serve.options, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    const what = `nginx: the compose configuration serves the SPA's files pre-compressed${process.getuid?.() === 0 ? ', running as www-data' : ''}`;
    // Two stand-ins for API instances on the same port at two loopback addresses, as the instances of one
    // name are: each says who it is, and holds one asset file of "its release".
    const instances = ['127.0.0.1', '127.0.0.2'].map((address) =>
      createServer((request, response) => {
        if (request.url === `/assets/only-on-${address}.js`) {
          response.writeHead(200, { 'content-type': 'text/javascript' }).end(`// ${address}`);
        } else if (request.url?.startsWith('/assets/')) {
          response.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"not-found"}');
        } else {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ instance: address }));
        }
      }),
    );
    const listen = (server: Server, address: string) =>
      new Promise<void>((resolve, reject) => server.once('error', reject).listen(instancePort, address, resolve));
    const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
    const answeredBy = async () =>
      ((await (await fetch(`${base}/api/whoami`)).json()) as { instance: string }).instance;
    const until = async (condition: () => Promise<boolean>, ms = 15_000) => {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        if (await condition().catch(() => false)) return true;
        await sleep(200);
      }
      return false;
    };
    try {
      await listen(instances[0]!, '127.0.0.1');
      await listen(instances[1]!, '127.0.0.2');
      await waitForHttp(`${base}/favicon.svg`, child, 'nginx of the proxy image', 20_000);
      const response = await fetch(`${base}/favicon.svg`, { headers: { 'accept-encoding': 'br' } });
      check(
        response.headers.get('content-encoding') === 'br' && (await response.text()) === favicon,
        what,
        errors ? [errors.trim()] : [],
      );

      const first = await answeredBy();
      await writeFile(peers, '127.0.0.1\n127.0.0.2\n');
      const both = await until(async () => {
        const seen = new Set<string>();
        for (let i = 0; i < 6; i++) seen.add(await answeredBy());
        return seen.size === 2;
      });
      await writeFile(peers, '127.0.0.2\n');
      const movedOn = await until(async () => {
        for (let i = 0; i < 4; i++) if ((await answeredBy()) !== '127.0.0.2') return false;
        return true;
      });
      const followed = first === '127.0.0.1' && both && movedOn;
      check(
        followed,
        'nginx: the instances are every address of their DNS name, read again while nginx runs (one, then both, then only the new one)',
        followed ? [] : [`first ${first}, both ${both}, only the new one ${movedOn}`, errors.trim()],
      );

      await writeFile(peers, '127.0.0.1\n127.0.0.2\n');
      await until(async () => (await answeredBy()) === '127.0.0.1');
      const found = await Promise.all(
        ['127.0.0.1', '127.0.0.2', '127.0.0.1', '127.0.0.2'].map(async (address) => {
          const asset = await fetch(`${base}/assets/only-on-${address}.js`);
          return asset.ok && (await asset.text()) === `// ${address}`;
        }),
      );
      const missing = await fetch(`${base}/assets/of-no-release.js`);
      const foundAll = found.every(Boolean) && missing.status === 404;
      check(
        foundAll,
        "nginx: an asset file it lacks is asked of the instances, the next after a 404, so another release's files are found through a rollout",
        foundAll ? [] : [`found ${found.join(', ')}; a file of no release: ${missing.status}`],
      );

      for (const server of instances) await close(server);
      const api = await fetch(`${base}/api/users`);
      const apiBody = (await api.json().catch(() => ({}))) as { code?: string; requestId?: string };
      const page = await fetch(`${base}/login`);
      const pageBody = await page.text();
      const own503 =
        api.status === 503 &&
        apiBody.code === 'unavailable' &&
        apiBody.requestId === api.headers.get('x-request-id') &&
        page.status === 503 &&
        page.headers.get('content-type')?.startsWith('text/html') === true &&
        pageBody.includes('Temporarily unavailable') &&
        !/nginx/i.test(pageBody);
      check(
        own503,
        "nginx: with no instance reachable, the API answers the portal's 503 JSON and a page the portal's 503 page, never nginx's bare 502",
        own503 ? [] : [`api ${api.status} ${JSON.stringify(apiBody)}; page ${page.status} ${pageBody.slice(0, 200)}`],
      );
    } catch (error) {
      check(false, what, [(error as Error).message, errors.trim()]);
    } finally {
      for (const server of instances) if (server.listening) await close(server);
      await stopChild(child, 'SIGQUIT', 5000);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
