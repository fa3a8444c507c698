import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fakePdf } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { ACCEL_BLOB_LOCATION } from '../blob-store/blob-store.ts';
import { ACCEL_OBJECT_LOCATION } from '../blob-store/s3-blob-store.ts';

const METRICS_TOKEN = 'metrics-token-0123456789-0123456789';

describe('GET /api/invoice behind nginx (INVOICE_DELIVERY=x-accel-redirect)', () => {
  const t = useTestApp({ env: { INVOICE_DELIVERY: 'x-accel-redirect', METRICS_TOKEN } });

  it('answers with the internal path of the blob and the download headers, and no body', async () => {
    const pdf = fakePdf('accel');
    const blob = await t.blobStore.put(pdf, { maxBytes: t.config.maxInvoiceBytes });
    await t.app.domain.invoices.recordVersion({ parcelCode: 'ACCEL-1', uploadedBy: 'test', ...blob });
    const user = await t.createAccount('user@example.com');
    const response = await t.app.inject({ url: '/api/invoice?parcelCode=ACCEL-1', headers: t.bearer(user.idToken) });
    assert.equal(response.statusCode, 200);
    const internalPath = String(response.headers['x-accel-redirect']);
    if (t.invoiceStore.kind === 'folder') {
      assert.equal(internalPath, `${ACCEL_BLOB_LOCATION}${blob.sha256.slice(0, 2)}/${blob.sha256}`);
      // The path below the location is where the blob store keeps the file: nginx serves exactly these bytes.
      const onDisk = await readFile(path.join(t.config.invoiceDir, internalPath.slice(ACCEL_BLOB_LOCATION.length)));
      assert.deepEqual(onDisk, pdf);
    } else {
      // Below the location: a presigned GET of the object, valid briefly, which nginx sends to the store.
      assert.ok(internalPath.startsWith(`${ACCEL_OBJECT_LOCATION}/`), internalPath);
      const presigned = new URL(internalPath.slice(ACCEL_OBJECT_LOCATION.length), t.invoiceStore.objectStore!.endpoint);
      assert.match(presigned.pathname, new RegExp(`/${blob.sha256.slice(0, 2)}/${blob.sha256}$`));
      assert.equal(
        presigned.searchParams.get('X-Amz-Expires'),
        String(t.config.invoiceStore.kind === 's3' && t.config.invoiceStore.presignSeconds),
      );
      assert.ok(presigned.searchParams.get('X-Amz-Signature'));
      const fromStore = await fetch(presigned);
      assert.equal(fromStore.status, 200);
      assert.deepEqual(Buffer.from(await fromStore.arrayBuffer()), pdf);
    }
    assert.equal(response.headers['content-type'], 'application/pdf');
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['content-disposition'], 'inline; filename="ACCEL-1.pdf"');
    assert.equal(response.rawPayload.length, 0);
    // nginx sends the bytes, but they are the portal's downloads all the same.
    const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.match(metrics.body, /^portal_invoice_downloads_total 1$/m);
    assert.match(metrics.body, new RegExp(`^portal_invoice_download_bytes_total ${pdf.length}$`, 'm'));
  });

  it('still refuses without a session and still answers 404 for an unknown code', async () => {
    const anonymous = await t.app.inject({ url: '/api/invoice?parcelCode=ACCEL-2' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers['x-accel-redirect'], undefined);
    const user = await t.createAccount('user@example.com');
    const missing = await t.app.inject({ url: '/api/invoice?parcelCode=ACCEL-2', headers: t.bearer(user.idToken) });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['x-accel-redirect'], undefined);
    assert.deepEqual(missing.json(), { message: 'No invoice was found for this parcel code.', code: 'not-found' });
  });
});
