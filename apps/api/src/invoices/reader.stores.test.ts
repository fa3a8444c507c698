import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { fakePdf } from '../../test/helpers/fixtures.ts';
import { invoiceStoreKind, openTestInvoiceStore, type TestInvoiceStore } from '../../test/helpers/invoice-stores.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { createInvoiceReader } from './reader.ts';

describe(`invoice reader (${invoiceStoreKind()} store)`, () => {
  let root: string;
  let testStore: TestInvoiceStore;
  let store: BlobStore;
  let opens = 0;

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'portal-reader-'));
    testStore = await openTestInvoiceStore(invoiceStoreKind(), root);
    const inner = testStore.open();
    store = { ...inner, open: (sha256) => (opens++, inner.open(sha256)) };
  });
  after(async () => {
    await testStore.close();
    await rm(root, { recursive: true, force: true });
  });

  const put = (bytes: Buffer) => store.put(bytes, { maxBytes: 10_000_000 });

  it('reads a small blob once, however many downloads ask for it at the same time', async () => {
    const reader = createInvoiceReader(store, { maxCacheBytes: 10_000, maxEntryBytes: 5_000 });
    const blob = await put(fakePdf('small', 1_000));
    opens = 0;
    const bodies = await Promise.all(Array.from({ length: 5 }, () => reader.open(blob.sha256, blob.size)));
    for (const body of bodies) assert.deepEqual(body?.body, fakePdf('small', 1_000));
    assert.equal(opens, 1);
  });

  it('answers bytes it keeps without a promise, and a first read with one', async () => {
    const reader = createInvoiceReader(store, { maxCacheBytes: 10_000, maxEntryBytes: 5_000 });
    const blob = await put(fakePdf('kept', 1_000));
    const first = reader.open(blob.sha256, blob.size);
    assert.ok(first instanceof Promise);
    await first;
    const kept = reader.open(blob.sha256, blob.size);
    assert.ok(!(kept instanceof Promise), 'kept bytes are answered there and then');
    assert.deepEqual(kept?.body, fakePdf('kept', 1_000));
  });

  it('streams a blob over the entry limit and never keeps it', async () => {
    const reader = createInvoiceReader(store, { maxCacheBytes: 100_000, maxEntryBytes: 5_000 });
    const blob = await put(fakePdf('large', 8_000));
    opens = 0;
    for (let i = 0; i < 2; i++) {
      const body = await reader.open(blob.sha256, blob.size);
      assert.ok(body?.body instanceof Readable);
      body.body.destroy();
    }
    assert.equal(opens, 2);
  });

  it('forgets the least recently used blobs beyond the memory budget', async () => {
    const reader = createInvoiceReader(store, { maxCacheBytes: 2_500, maxEntryBytes: 2_000 });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((label) => put(fakePdf(label, 1_000))));
    await reader.open(a!.sha256, a!.size);
    await reader.open(b!.sha256, b!.size);
    await reader.open(a!.sha256, a!.size); // a is now the most recent
    await reader.open(c!.sha256, c!.size); // over budget: b goes
    opens = 0;
    await reader.open(a!.sha256, a!.size);
    await reader.open(c!.sha256, c!.size);
    assert.equal(opens, 0);
    await reader.open(b!.sha256, b!.size);
    assert.equal(opens, 1);
  });

  it('answers undefined for a blob the store does not have', async () => {
    const reader = createInvoiceReader(store, { maxCacheBytes: 10_000, maxEntryBytes: 5_000 });
    assert.equal(await reader.open('0'.repeat(64), 10), undefined);
  });
});
