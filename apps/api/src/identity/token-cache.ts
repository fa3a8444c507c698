import { hash } from 'node:crypto';
import { createBoundedCache } from '../lib/bounded-cache.ts';
import { IdentityProviderUnavailableError, type VerifiedToken } from './identity-provider.ts';

const PROVIDER_RETRY_MS = 5000;

/**
 * Remembers verified ID tokens by their hash (never the token itself) so a burst of requests costs one
 * verification; an entry is re-verified after `recheckMs`, which bounds how late a revocation is seen.
 * While the identity provider is unavailable, a token verified within `outageGraceMs` (and not expired)
 * is still accepted: people already at work keep working through a provider outage, and only those the
 * portal has not seen recently are asked to come back later.
 */
export function createTokenCache(options: {
  recheckMs: number;
  outageGraceMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** Told of every lookup, for the hit-rate metric. */
  onLookup?: (outcome: 'hit' | 'miss') => void;
}) {
  const now = options.now ?? Date.now;
  const outageGraceMs = options.outageGraceMs ?? 0;
  const entries = createBoundedCache<VerifiedToken & { verifiedAtMs: number }>({
    maxEntries: options.maxEntries ?? 10_000,
    ttlMs: Math.max(options.recheckMs, outageGraceMs),
    now,
  });
  // After the provider failed once, known tokens skip it for a while: no request waits for its timeout again.
  let providerDownUntilMs = 0;
  // The one-shot hash: half the cost of a Hash object, on every signed-in request.
  const keyOf = (token: string) => hash('sha256', token, 'base64url');

  return {
    async verify(token: string, verifyFresh: (token: string) => Promise<VerifiedToken>): Promise<VerifiedToken> {
      const key = keyOf(token);
      const hit = entries.get(key);
      const at = now();
      const unexpired = hit && at < hit.expiresAtMs ? hit : undefined;
      if (unexpired && at - unexpired.verifiedAtMs < options.recheckMs) {
        options.onLookup?.('hit');
        return unexpired;
      }
      options.onLookup?.('miss');
      const withinGrace = unexpired && at - unexpired.verifiedAtMs < outageGraceMs;
      if (withinGrace && at < providerDownUntilMs) return unexpired;
      let verified: VerifiedToken;
      try {
        verified = await verifyFresh(token);
      } catch (error) {
        if (error instanceof IdentityProviderUnavailableError) providerDownUntilMs = now() + PROVIDER_RETRY_MS;
        if (error instanceof IdentityProviderUnavailableError && withinGrace) return unexpired;
        entries.delete(key);
        throw error;
      }
      entries.set(key, { ...verified, verifiedAtMs: now() });
      return verified;
    },
    /** Forgets every token of an account at once, so a deletion through this server is seen immediately. */
    evictUid(uid: string) {
      entries.deleteWhere((token) => token.uid === uid);
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
