import { createHash } from 'node:crypto';
import { createBoundedCache } from '../lib/bounded-cache.ts';
import type { VerifiedToken } from './identity-provider.ts';

/**
 * Remembers verified ID tokens by their hash (never the token itself) so a burst of requests costs one
 * verification; an entry is re-verified after `recheckMs`, which bounds how late a revocation is seen.
 */
export function createTokenCache(options: {
  recheckMs: number;
  maxEntries?: number;
  now?: () => number;
  /** Told of every lookup, for the hit-rate metric. */
  onLookup?: (outcome: 'hit' | 'miss') => void;
}) {
  const now = options.now ?? Date.now;
  const entries = createBoundedCache<VerifiedToken>({
    maxEntries: options.maxEntries ?? 10_000,
    ttlMs: options.recheckMs,
    now,
  });
  const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');

  return {
    async verify(token: string, verifyFresh: (token: string) => Promise<VerifiedToken>): Promise<VerifiedToken> {
      const key = keyOf(token);
      const hit = entries.get(key);
      if (hit && now() < hit.expiresAtMs) {
        options.onLookup?.('hit');
        return hit;
      }
      options.onLookup?.('miss');
      entries.delete(key);
      const verified = await verifyFresh(token);
      entries.set(key, verified);
      return verified;
    },
    /** Forgets every token of an account at once, so a deletion through this server is seen immediately. */
    evictUid(uid: string) {
      entries.deleteWhere((token) => token.uid === uid);
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
