import fp from 'fastify-plugin';
import type { BlobStore } from '../invoices/blob-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    blobStore: BlobStore;
  }
}

/** Created by the caller (server, CLI or test) so each chooses where the bytes live. */
export default fp<{ blobStore: BlobStore }>(
  async (app, options) => {
    app.decorate('blobStore', options.blobStore);
  },
  { name: 'blob-store' },
);
