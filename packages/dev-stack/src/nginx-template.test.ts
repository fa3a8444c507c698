// The production nginx template (deploy/nginx/portal.conf.template) in front of a stand-in instance that
// records every path it is asked for: what the public side may reach, and what it must never pass on.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { findFreePort } from './auth-emulator.ts';
import { renderPortalSite, startNginx, type RunningNginx } from './nginx.ts';

let workDir: string;
let upstream: http.Server;
let nginx: RunningNginx;
let base: { host: string; port: number };
const reachedInstance: string[] = [];

before(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'nginx-template-test-'));
  upstream = http.createServer((request, response) => {
    reachedInstance.push(request.url ?? '');
    response.end('from the instance');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = await findFreePort();
  base = { host: '127.0.0.1', port };
  nginx = await startNginx({
    workDir: path.join(workDir, 'nginx'),
    httpConfig: await renderPortalSite({
      listen: `listen 127.0.0.1:${port};`,
      upstreamServers: [`server 127.0.0.1:${(upstream.address() as AddressInfo).port};`],
      webRoot: workDir,
      invoiceDir: workDir,
      maxBody: '1m',
    }),
    readyUrl: `http://127.0.0.1:${port}/api/healthz`,
  });
});

after(async () => {
  await nginx?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** A GET with the path exactly as written: fetch would tidy `..` and `//` before nginx saw them. */
const rawGet = (requestPath: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.get({ ...base, path: requestPath, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });

test('passes the API and pages on to an instance', async () => {
  reachedInstance.length = 0;
  assert.equal((await rawGet('/api/users/someone%40example.com')).body, 'from the instance');
  assert.equal((await rawGet('/login')).body, 'from the instance');
  assert.deepEqual(reachedInstance, ['/api/users/someone%40example.com', '/login']);
});

test('never passes /metrics on, however the path is spelled', async () => {
  reachedInstance.length = 0;
  for (const spelling of ['/metrics', '/metrics/', '/metrics?x=1', '//metrics', '/%6Detrics', '/api/../metrics']) {
    const answer = await rawGet(spelling);
    assert.equal(answer.status, 404, spelling);
    assert.notEqual(answer.body, 'from the instance', spelling);
  }
  assert.deepEqual(reachedInstance, []);
});
