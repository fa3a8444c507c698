import type { Readable } from 'node:stream';
import { createBoundedCache } from '../lib/bounded-cache.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { inSpan } from '../observability/spans.ts';

export interface InvoiceReaderOptions {
  /** Memory kept for hot invoices, all together. */
  maxCacheBytes: number;
  /** Larger invoices are always streamed from the store and never held in memory whole. */
  maxEntryBytes: number;
}

export interface InvoiceBody {
  size: number;
  body: Buffer | Readable;
}

/**
 * Serves invoice bytes. Blobs are content-addressed, so bytes cached under a hash can never go stale:
 * small, recently read invoices come from memory (opening and reading a file per download cost more
 * than everything else on the hot path together), larger ones stream from the store.
 */
export function createInvoiceReader(store: BlobStore, options: InvoiceReaderOptions) {
  const cache = createBoundedCache<Buffer>({
    maxSize: options.maxCacheBytes,
    sizeOf: (bytes) => bytes.length,
  });
  const loading = new Map<string, Promise<Buffer | undefined>>();

  async function load(sha256: string): Promise<Buffer | undefined> {
    const blob = await store.open(sha256);
    if (!blob) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (!cache.has(sha256)) cache.set(sha256, bytes);
    return bytes;
  }

  return {
    /** The current bytes of a blob whose row says `size`; undefined when the store has no such blob. */
    open(sha256: string, size: number): InvoiceBody | Promise<InvoiceBody | undefined> {
      // A span for each read that reaches the store (a streamed one ends once its stream is open); none for a
      // hit, which is answered without a promise (callers `await` it).
      if (size > options.maxEntryBytes) {
        return inSpan('blob read', { 'portal.blob.size': size, 'portal.blob.streamed': true }, async () => {
          const blob = await store.open(sha256);
          return blob && { size: blob.size, body: blob.stream };
        });
      }
      const hit = cache.get(sha256);
      if (hit) return { size: hit.length, body: hit };
      // One read per blob however many requests for it arrive at once.
      let pending = loading.get(sha256);
      if (!pending) {
        pending = inSpan('blob read', { 'portal.blob.size': size, 'portal.blob.streamed': false }, () =>
          load(sha256),
        ).finally(() => loading.delete(sha256));
        loading.set(sha256, pending);
      }
      return pending.then((bytes) => bytes && { size: bytes.length, body: bytes });
    },
  };
}

export type InvoiceReader = ReturnType<typeof createInvoiceReader>;
