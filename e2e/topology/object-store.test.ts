/**
 * The production topology with the invoices in an S3-compatible bucket: nginx in front of two compiled API
 * instances, which authorize a download and answer X-Accel-Redirect to a presigned request; nginx fetches the
 * object from the bucket and sends it, so the bytes never pass through Node. `npm run test:topology` runs it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { demoAccount, findFreePort, identityToolkit, startTopology, type Topology } from '@portal/dev-stack';

const databaseUrl = process.env.TOPOLOGY_DATABASE_URL ?? '';
const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const STORE_MESSAGE = 'The portal cannot reach the store that keeps the invoice files. Please try again in a minute.';

describe('the production topology with invoices in an object store', () => {
  let topology: Topology;
  let workDir: string;

  before(async () => {
    assert.ok(databaseUrl, 'TOPOLOGY_DATABASE_URL is not set: run these tests with `npm run test:topology`');
    workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-topology-s3-'));
    topology = await startTopology({
      port: await findFreePort(),
      instances: 2,
      databaseUrl,
      workDir,
      invoiceStore: 'object',
    });
  });
  after(async () => {
    await topology?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const userToken = async () => {
    const account = demoAccount('user@example.com');
    return (await identityToolkit(topology.emulator.url).signIn(account.email, account.password!)).idToken;
  };
  const invoiceUrl = (base: string) => `${base}/api/invoice?parcelCode=DEMO000002`;

  it('sends the object from the bucket through nginx, with the portal headers and none of the bucket', async () => {
    const headers = { authorization: `Bearer ${await userToken()}` };
    const direct = await fetch(invoiceUrl(topology.instances[0]!.url), { headers });
    assert.equal(direct.status, 200);
    assert.equal((await direct.arrayBuffer()).byteLength, 0, 'the instance sends no bytes');
    const internalPath = direct.headers.get('x-accel-redirect') ?? '';
    assert.match(internalPath, /^\/_invoice-objects\/invoices\/portal\/[0-9a-f]{2}\/[0-9a-f]{64}\?/);
    assert.match(internalPath, /X-Amz-Expires=60&/);
    const storedSha256 = new URL(internalPath, 'http://x').pathname.split('/').pop();

    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await fetch(invoiceUrl(topology.url), { headers });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/pdf');
      assert.equal(response.headers.get('content-disposition'), 'inline; filename="DEMO000002.pdf"');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('x-accel-redirect'), null);
      for (const name of response.headers.keys())
        assert.doesNotMatch(name, /^x-amz-|^etag$/, `${name} reached the client`);
      assert.equal(sha256Of(new Uint8Array(await response.arrayBuffer())), storedSha256);
    }
    // The internal location cannot be asked from outside, even with a valid presigned query.
    assert.equal((await fetch(`${topology.url}${internalPath}`)).status, 404);
    assert.equal((await fetch(invoiceUrl(topology.url))).status, 401);
  });

  it('answers 503 with the portal message while the bucket is down, and serves again once it is back', async () => {
    const headers = { authorization: `Bearer ${await userToken()}` };
    await topology.objectStore!.stop();
    let answer;
    const started = performance.now();
    try {
      answer = await fetch(invoiceUrl(topology.url), { headers });
    } finally {
      await topology.objectStore!.start();
    }
    const seconds = (performance.now() - started) / 1000;
    assert.equal(answer.status, 503);
    const body = (await answer.json()) as { message: string; code: string; requestId: string };
    assert.equal(body.message, STORE_MESSAGE);
    assert.equal(body.code, 'unavailable');
    assert.equal(body.requestId, answer.headers.get('x-request-id'));
    assert.ok(seconds < 5, `answered after ${seconds.toFixed(2)} s`);
    const back = await fetch(invoiceUrl(topology.url), { headers });
    assert.equal(back.status, 200);
    process.stdout.write(`# bucket down: nginx answered 503 "${body.message}" in ${seconds.toFixed(2)} s\n`);
  });
});
