import fp from 'fastify-plugin';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import { createTokenCache, type TokenCache } from '../identity/token-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityProvider;
    tokenCache: TokenCache;
  }
}

export default fp<{ identity: IdentityProvider; tokenRecheckMs: number }>(
  async (app, options) => {
    app.decorate('identity', options.identity);
    app.decorate('tokenCache', createTokenCache({ recheckMs: options.tokenRecheckMs }));
  },
  { name: 'identity' },
);
