import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/client.ts';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import { createTokenCache, type TokenCache } from '../identity/token-cache.ts';
import type { BlobStore } from '../invoices/blob-store.ts';
import type { AppDependencies } from '../app.ts';
import type {} from '../observability/metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    identity: IdentityProvider;
    blobStore: BlobStore;
    tokenCache: TokenCache;
  }
}

/**
 * The services the caller opened (server, CLI, test or benchmark, all through openServices), on the app
 * for every plugin and route; the caller closes them, so tests can share one database per file.
 */
export default fp<AppDependencies>(
  async (app, services) => {
    app.decorate('database', services.database);
    app.decorate('identity', services.identity);
    app.decorate('blobStore', services.blobStore);
    app.decorate(
      'tokenCache',
      createTokenCache({
        recheckMs: services.config.tokenRecheckMs,
        outageGraceMs: services.config.tokenOutageGraceMs,
        onLookup: (outcome) => app.metrics.tokenCacheLookups.inc({ outcome }),
      }),
    );
  },
  { name: 'services', dependencies: ['metrics'] },
);
