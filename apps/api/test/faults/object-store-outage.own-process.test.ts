import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startObjectStore } from '@portal/dev-stack';
import { INVOICE_STORE_UNAVAILABLE_MESSAGE } from '../../src/plugins/errors.ts';
import { fakePdf, sha256Of } from '../helpers/fixtures.ts';
import { secondsUntil, startTcpProxy, timed } from '../helpers/tcp-proxy.ts';
import { useTestApp } from '../helpers/test-app.ts';

// Why a process of its own (.own-process): it stops, stalls and restarts the object store under the apps it builds.

// The portal reaches the local S3 server through a proxy this test controls (a black hole, a stall); for a
// real outage the server itself is stopped and started again on its port with its objects.
const storeDir = await mkdtemp(path.join(os.tmpdir(), 'portal-store-outage-'));
const objectStore = await startObjectStore({ dataDir: storeDir });
const proxy = await startTcpProxy({ host: '127.0.0.1', port: objectStore.port });
for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_EC2_METADATA_DISABLED']) {
  process.env[name] = objectStore.env[name];
}

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
/** Within this, every call that needs the store answers during an outage (the store's timeout is 1.5 s). */
const ANSWER_WITHIN_S = 5;

describe('the object store down or slow under a running server', () => {
  const t = useTestApp({
    invoiceStore: 'folder',
    env: {
      ...objectStore.env,
      INVOICE_STORE_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
      INVOICE_STORE_TIMEOUT_MS: '1500',
      INVOICE_SPOOL_DIR: path.join(storeDir, 'spool'),
      INGEST_TOKEN,
    },
  });
  after(async () => {
    await proxy.close();
    await objectStore.stop();
    await rm(storeDir, { recursive: true, force: true });
  });

  async function portalWithInvoices() {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    const upload = (code: string, bytes: Buffer) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/invoices/${code}`,
        payload: bytes,
        headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
      });
    // Each fault asks for an invoice this instance has never served, so none of its bytes are in memory.
    const code = `OUT-${Math.random().toString(36).slice(2, 10)}`;
    const pdf = fakePdf(code, 30_000);
    assert.equal((await upload(code, pdf)).statusCode, 201);
    return {
      pdf,
      download: () => t.app.inject({ url: `/api/invoice?parcelCode=${code}`, headers: t.bearer(user.idToken) }),
      upload: () => upload(`${code}-NEW`, fakePdf(`${code} new`)),
      newCode: `${code}-NEW`,
      listUsers: () => t.app.inject({ url: '/api/users', headers: t.bearer(admin.idToken) }),
      readyz: () => t.app.inject({ url: '/api/readyz' }),
    };
  }

  async function assertUnavailable(label: string, request: () => Promise<LightMyRequestResponse>) {
    const { answer, seconds } = await timed(request);
    assert.equal(answer.statusCode, 503, `${label}: ${answer.body}`);
    assert.ok(seconds < ANSWER_WITHIN_S, `${label} took ${seconds.toFixed(2)} s`);
    assert.deepEqual(answer.json(), {
      message: INVOICE_STORE_UNAVAILABLE_MESSAGE,
      code: 'unavailable',
      requestId: answer.headers['x-request-id'],
    });
    // Nothing about the failure leaks.
    assert.doesNotMatch(answer.body, /ECONN|timeout|s3|bucket|127\.0\.0\.1/i);
    return seconds;
  }

  for (const fault of ['stopped', 'black-holed', 'stalled'] as const) {
    it(`answers 503 within ${ANSWER_WITHIN_S} s while the store is ${fault}, keeps everything else, and recovers on its own`, async (test) => {
      const portal = await portalWithInvoices();
      if (fault === 'stopped') await objectStore.stop();
      if (fault === 'black-holed') proxy.cut();
      if (fault !== 'stopped') proxy.stall();
      let longest;
      try {
        longest = Math.max(
          await assertUnavailable('download', portal.download),
          await assertUnavailable('upload', portal.upload),
        );
        // An upload the store did not take leaves no row: nothing names bytes that are not there.
        assert.equal(await t.app.domain.invoices.findByParcelCode(portal.newCode), undefined);
        // The rest of the portal does not need the store.
        assert.equal((await portal.listUsers()).statusCode, 200);
        assert.equal((await portal.readyz()).statusCode, 200);
      } finally {
        if (fault === 'stopped') await objectStore.start();
        await proxy.restore();
      }
      const recovery = await secondsUntil(portal.download, (response) => response.statusCode === 200);
      assert.equal(sha256Of((await portal.download()).rawPayload), sha256Of(portal.pdf));
      assert.equal((await portal.upload()).statusCode, 201);
      assert.ok(recovery < 5, `back after ${recovery.toFixed(2)} s`);
      test.diagnostic(
        `store ${fault}: a download and an upload answered 503 "${INVOICE_STORE_UNAVAILABLE_MESSAGE}" within ${longest.toFixed(2)} s; downloads back ${recovery.toFixed(2)} s after the store was`,
      );
    });
  }
});
