// The production nginx template (deploy/nginx/portal.conf.template) in front of a stand-in instance that
// records every path it is asked for: what the public side may reach, and what it must never pass on.
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
let lastHeaders: http.IncomingHttpHeaders = {};

before(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'nginx-template-test-'));
  upstream = http.createServer((request, response) => {
    reachedInstance.push(request.url ?? '');
    lastHeaders = request.headers;
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
      accessLog: path.join(workDir, 'access.log'),
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
const rawGet = (requestPath: string, headers: http.OutgoingHttpHeaders = {}) =>
  new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const request = http.get({ ...base, path: requestPath, headers, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
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

test("keeps a line per request of its own, with the instance's status and no address, path or query", async () => {
  const answered = await rawGet('/api/invoice?parcelCode=SECRET00042');
  const refused = await rawGet('/metrics?who=jane.doe%40example.com');
  assert.equal(answered.status, 200);
  assert.equal(refused.status, 404);
  const lines = (await readFile(path.join(workDir, 'access.log'), 'utf8')).trim().split('\n');
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const [instanceAnswer, ownAnswer] = entries.slice(-2);
  assert.deepEqual(Object.keys(instanceAnswer!).sort(), [
    'bytes_sent',
    'duration_s',
    'method',
    'request_id',
    'status',
    'time',
    'upstream_status',
  ]);
  assert.equal(instanceAnswer!.method, 'GET');
  assert.equal(instanceAnswer!.status, 200);
  assert.equal(instanceAnswer!.upstream_status, '200');
  assert.match(String(instanceAnswer!.request_id), /^[0-9a-f]{32}$/);
  // nginx's own 404: no instance was asked.
  assert.equal(ownAnswer!.status, 404);
  assert.equal(ownAnswer!.upstream_status, '');
  const text = lines.join('\n');
  for (const secret of ['SECRET00042', 'jane', 'example.com', 'metrics', '/api', '127.0.0.1'])
    assert.ok(!text.includes(secret), `the access log names ${secret}`);
});

test("passes a caller's trace context on beside nginx's request id, which the access log names", async () => {
  const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  const tracestate = 'vendor=opaque-value';
  const answer = await rawGet('/api/invoice?parcelCode=TRACED1', { traceparent, tracestate });
  assert.equal(answer.status, 200);
  assert.equal(lastHeaders.traceparent, traceparent);
  assert.equal(lastHeaders.tracestate, tracestate);
  const requestId = lastHeaders['x-request-id'];
  assert.match(String(requestId), /^[0-9a-f]{32}$/);
  assert.equal(answer.headers['x-request-id'], requestId, 'the caller is told the id the instance got');
  const lines = (await readFile(path.join(workDir, 'access.log'), 'utf8')).trim().split('\n');
  assert.equal((JSON.parse(lines.at(-1)!) as { request_id: string }).request_id, requestId);
  // Without a trace context from the caller, none is made up: the instance starts the trace.
  await rawGet('/api/healthz');
  assert.equal(lastHeaders.traceparent, undefined);
  assert.equal(lastHeaders.tracestate, undefined);
});

test('passes /scim/ on from any network unless SCIM_TOKEN_NETWORKS names some; then from those alone', async () => {
  reachedInstance.length = 0;
  assert.equal((await rawGet('/scim/v2/Users')).body, 'from the instance');
  assert.deepEqual(reachedInstance, ['/scim/v2/Users']);

  const port = await findFreePort();
  const narrowed = await startNginx({
    workDir: path.join(workDir, 'nginx-scim'),
    httpConfig: await renderPortalSite({
      listen: `listen 127.0.0.1:${port};`,
      upstreamServers: [`server 127.0.0.1:${(upstream.address() as AddressInfo).port};`],
      webRoot: workDir,
      invoiceDir: workDir,
      maxBody: '1m',
      accessLog: '/dev/null',
      scimNetworks: ['127.0.0.1/32', '2001:db8:5c1::/48'],
    }),
    readyUrl: `http://127.0.0.1:${port}/api/healthz`,
  });
  try {
    /** A GET to the narrowed nginx from one loopback address or another (Linux answers all of 127/8). */
    const getFrom = (localAddress: string, requestPath: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.get(
          { host: '127.0.0.1', port, path: requestPath, localAddress, agent: false },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
      });
    reachedInstance.length = 0;
    assert.equal((await getFrom('127.0.0.1', '/scim/v2/Users')).body, 'from the instance');
    const outside = await getFrom('127.0.0.2', '/scim/v2/Users');
    assert.equal(outside.status, 403);
    // In SCIM's error form (RFC 7644 §3.12), as the instances answer theirs.
    assert.deepEqual(JSON.parse(outside.body), {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '403',
      detail: 'SCIM calls are accepted only from the networks of the company directory (SCIM_TOKEN_NETWORKS).',
    });
    // Only the directory's door is narrowed: the same caller still reaches the API and the pages.
    assert.equal((await getFrom('127.0.0.2', '/api/healthz')).body, 'from the instance');
    assert.deepEqual(reachedInstance, ['/scim/v2/Users', '/api/healthz']);
  } finally {
    await narrowed.stop();
  }
});
