import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { createFsBlobStore } from './fs-blob-store.ts';
import { createS3BlobStore } from './s3-blob-store.ts';

/** The invoice store the configuration names: the folder INVOICE_DIR, or the bucket of INVOICE_STORE. */
export function openBlobStore(config: Pick<Config, 'invoiceDir' | 'invoiceStore'>): BlobStore {
  const store = config.invoiceStore;
  return store.kind === 's3' ? createS3BlobStore(store) : createFsBlobStore(config.invoiceDir);
}
