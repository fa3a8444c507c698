import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fakePdf, sha256Of } from '../../test/helpers/fixtures.ts';
import { invoiceStoreKind, openTestInvoiceStore, type TestInvoiceStore } from '../../test/helpers/invoice-stores.ts';
import { BlobIntegrityError, BlobTooLargeError, type BlobStore } from './blob-store.ts';

const LIMIT = 1_000_000;

class NotAPdf extends Error {}

const requirePdf = (head: Uint8Array) => {
  if (Buffer.from(head.subarray(0, 5)).toString('latin1') !== '%PDF-') throw new NotAPdf();
};

async function* chunked(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// On the folder store, or on the object store in the runner's object-store pass.
describe(`${invoiceStoreKind()} blob store`, () => {
  let dir: string;
  let testStore: TestInvoiceStore;
  let store: BlobStore;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'portal-blobs-'));
    testStore = await openTestInvoiceStore(invoiceStoreKind(), dir);
    store = testStore.open();
  });
  afterEach(async () => {
    await testStore.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores bytes under their sha256 and reads them back', async () => {
    const bytes = fakePdf('round trip', 70_000);
    const blob = await store.put(chunked(bytes, 4096), { maxBytes: LIMIT, validateHead: requirePdf });

    assert.deepEqual(blob, { sha256: sha256Of(bytes), size: bytes.length });
    const opened = await store.open(blob.sha256);
    assert.equal(opened?.size, bytes.length);
    assert.deepEqual(await readAll(opened!.stream), bytes);
    assert.deepEqual(await testStore.contents(), [testStore.entryOf(blob.sha256)]);
  });

  it('sends the SHA-256 with every upload to the bucket, which checks the bytes against it on arrival', async () => {
    const bytes = fakePdf('checksum');
    const blob = await store.put(bytes, { maxBytes: LIMIT });
    const expected = testStore.kind === 'object' ? Buffer.from(sha256Of(bytes), 'hex').toString('base64') : undefined;
    assert.equal(await testStore.recordedChecksum(blob.sha256), expected);
  });

  it('never serves damaged bytes as the blob: the read fails instead', async () => {
    const bytes = fakePdf('intact', 20_000);
    const blob = await store.put(bytes, { maxBytes: LIMIT });
    for (const damaged of [fakePdf('tampered', 20_000), bytes.subarray(0, 10_000)]) {
      await testStore.damage(blob.sha256, damaged);
      const opened = await store.open(blob.sha256);
      await assert.rejects(readAll(opened!.stream), BlobIntegrityError);
    }
  });

  it('answers absent for an unknown hash', async () => {
    assert.equal(await store.open('0'.repeat(64)), undefined);
  });

  it('is idempotent for identical bytes', async () => {
    const bytes = fakePdf('twice');
    const first = await store.put(bytes, { maxBytes: LIMIT });
    const second = await store.put(chunked(bytes, 3), { maxBytes: LIMIT });
    assert.deepEqual(second, first);
    assert.equal((await testStore.contents()).length, 1);
  });

  it('accepts exactly maxBytes and refuses one byte more, leaving nothing behind', async () => {
    const bytes = fakePdf('limit', 2_000);
    await assert.rejects(store.put(chunked(bytes, 100), { maxBytes: bytes.length - 1 }), BlobTooLargeError);
    await assert.rejects(store.put(bytes, { maxBytes: bytes.length - 1 }), BlobTooLargeError);
    assert.deepEqual(await testStore.contents(), []);

    await store.put(bytes, { maxBytes: bytes.length });
    assert.equal((await testStore.contents()).length, 1);
  });

  it('lets validateHead refuse a body, leaving nothing behind', async () => {
    const bytes = Buffer.from('<html>not an invoice</html>');
    await assert.rejects(store.put(chunked(bytes, 2), { maxBytes: LIMIT, validateHead: requirePdf }), NotAPdf);
    assert.deepEqual(await testStore.contents(), []);
  });

  it('shows validateHead at least five bytes, or the whole of a shorter body', async () => {
    const seen: number[] = [];
    const record = (head: Uint8Array) => void seen.push(head.length);
    await store.put(chunked(fakePdf('one byte at a time'), 1), { maxBytes: LIMIT, validateHead: record });
    await store.put(Buffer.from('%PD'), { maxBytes: LIMIT, validateHead: record });
    await store.put(chunked(Buffer.alloc(0), 1), { maxBytes: LIMIT, validateHead: record });
    assert.deepEqual(seen, [5, 3, 0]);
  });

  it('leaves nothing behind when the body fails midway', async () => {
    const bytes = fakePdf('interrupted', 50_000);
    let reads = 0;
    // Fails only once the store is reading, as a reset connection would.
    const failing = new Readable({
      read() {
        if (reads < 2) this.push(bytes.subarray(reads * 10_000, ++reads * 10_000));
        else this.destroy(new Error('connection reset'));
      },
    });
    await assert.rejects(store.put(failing, { maxBytes: LIMIT, validateHead: requirePdf }), /connection reset/);

    async function* truncated() {
      yield bytes.subarray(0, 10_000);
      throw new Error('premature end');
    }
    await assert.rejects(store.put(truncated(), { maxBytes: LIMIT }), /premature end/);
    assert.deepEqual(await testStore.contents(), []);
  });

  it('lets concurrent puts of the same bytes all succeed with one blob', async () => {
    const bytes = fakePdf('concurrent', 200_000);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.put(chunked(bytes, 1024 * (i + 1)), { maxBytes: LIMIT })),
    );
    for (const result of results) assert.deepEqual(result, { sha256: sha256Of(bytes), size: bytes.length });
    assert.deepEqual(await testStore.contents(), [testStore.entryOf(results[0]!.sha256)]);
    assert.deepEqual(await readAll((await store.open(results[0]!.sha256))!.stream), bytes);
  });

  it('lists what it holds and deletes one blob', async () => {
    const kept = await store.put(fakePdf('kept'), { maxBytes: LIMIT });
    const gone = await store.put(fakePdf('gone'), { maxBytes: LIMIT });
    const listed = [];
    for await (const blob of store.list()) listed.push(blob);
    assert.deepEqual(
      listed.map(({ sha256, size }) => ({ sha256, size })).sort((a, b) => a.sha256.localeCompare(b.sha256)),
      [kept, gone].sort((a, b) => a.sha256.localeCompare(b.sha256)),
    );
    for (const blob of listed) assert.ok(Date.now() - blob.modifiedAt.getTime() < 60_000);
    await store.delete(gone.sha256);
    await store.delete(gone.sha256);
    assert.equal(await store.open(gone.sha256), undefined);
    assert.deepEqual(await testStore.contents(), [testStore.entryOf(kept.sha256)]);
  });

  it('refuses ids that are not 64 lowercase hex characters', async () => {
    const stored = await store.put(fakePdf('secret'), { maxBytes: LIMIT });
    const ids = [
      '',
      '../../etc/passwd',
      `../${stored.sha256.slice(0, 2)}/${stored.sha256}`.slice(0, 64),
      `${stored.sha256.slice(0, 2)}/${stored.sha256.slice(3)}`,
      stored.sha256.toUpperCase(),
      stored.sha256.slice(1),
      `${stored.sha256}0`,
      `${stored.sha256}\n`,
      'tmp',
    ];
    for (const id of ids) {
      await assert.rejects(store.open(id), TypeError, JSON.stringify(id));
      await assert.rejects(store.delete(id), TypeError, JSON.stringify(id));
      await assert.rejects(store.accelRedirectPath(id), TypeError, JSON.stringify(id));
    }
  });

  it('refuses a maxBytes that is not a non-negative integer', async () => {
    await assert.rejects(store.put(fakePdf('x'), { maxBytes: Number.NaN }), RangeError);
    await assert.rejects(store.put(fakePdf('x'), { maxBytes: -1 }), RangeError);
  });
});
