import { hash } from 'node:crypto';
import { createBoundedCache } from '../lib/bounded-cache.ts';
import { IdentityProviderUnavailableError, type VerifiedToken } from './identity-provider.ts';

const PROVIDER_RETRY_MS = 5000;

/**
 * Remembers verified ID tokens by their hash (never the token itself) so a burst of requests costs one
 * verification; an entry is re-verified after `recheckMs`, which bounds how late a revocation is seen.
 * Requests for a token whose verification is under way wait for that one instead of starting their own: when
 * a busy person's entry came due, every request of theirs at that moment (a browser's or a client's dozens in
 * parallel) used to call the provider, each on a connection of its own.
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
  // By the token's hash; the token itself is held only by the call under way, as by any request.
  const underWay = new Map<string, { evictions: number; promise: Promise<VerifiedToken> }>();
  let evictions = 0;
  // The one-shot hash: half the cost of a Hash object.
  const keyOf = (token: string) => hash('sha256', token, 'base64url');
  // The key of the token each connection sent last: a kept-alive connection sends the same header request
  // after request, and comparing it with the last costs a fraction of hashing it again. Weakly held by the
  // connection, so a token stays in memory only as long as the connection that carries it is open, never
  // in the cache, which outlives it by the outage grace.
  const lastKeyOf = new WeakMap<object, { token: string; key: string }>();
  const keyFor = (token: string, connection: object | undefined) => {
    if (!connection) return keyOf(token);
    const last = lastKeyOf.get(connection);
    if (last?.token === token) return last.key;
    const key = keyOf(token);
    lastKeyOf.set(connection, { token, key });
    return key;
  };

  return {
    /**
     * `connection`: what the token came over (the request's socket), to hash a kept-alive one's token once.
     * A hit is answered without a promise (callers `await` it).
     */
    verify(
      token: string,
      verifyFresh: (token: string) => Promise<VerifiedToken>,
      connection?: object,
    ): VerifiedToken | Promise<VerifiedToken> {
      const key = keyFor(token, connection);
      const hit = entries.get(key);
      const at = now();
      const unexpired = hit && at < hit.expiresAtMs ? hit : undefined;
      if (unexpired && at - unexpired.verifiedAtMs < options.recheckMs) {
        options.onLookup?.('hit');
        return unexpired;
      }
      return verifyAgain(token, verifyFresh, key, at, unexpired);
    },
    /** Forgets every token of an account at once, so a deletion through this server is seen immediately. */
    evictUid(uid: string) {
      evictions++;
      entries.deleteWhere((token) => token.uid === uid);
    },
  };

  async function verifyAgain(
    token: string,
    verifyFresh: (token: string) => Promise<VerifiedToken>,
    key: string,
    at: number,
    unexpired: (VerifiedToken & { verifiedAtMs: number }) | undefined,
  ): Promise<VerifiedToken> {
    options.onLookup?.('miss');
    const withinGrace = unexpired && at - unexpired.verifiedAtMs < outageGraceMs;
    if (withinGrace && at < providerDownUntilMs) return unexpired;
    let verification = underWay.get(key);
    // One begun before an account's tokens were forgotten may vouch for a deleted account: not joined.
    if (verification?.evictions !== evictions) {
      const startedAt = evictions;
      const promise = verifyFresh(token).then(
        (verified) => {
          if (startedAt === evictions) entries.set(key, { ...verified, verifiedAtMs: now() });
          return verified;
        },
        (error: unknown) => {
          if (error instanceof IdentityProviderUnavailableError) providerDownUntilMs = now() + PROVIDER_RETRY_MS;
          throw error;
        },
      );
      verification = { evictions: startedAt, promise };
      underWay.set(key, verification);
      const done = () => {
        if (underWay.get(key)?.promise === promise) underWay.delete(key);
      };
      promise.then(done, done);
    }
    try {
      return await verification.promise;
    } catch (error) {
      // Each waiter decides for itself whether its grace covers an unavailable provider.
      if (error instanceof IdentityProviderUnavailableError && withinGrace) return unexpired;
      entries.delete(key);
      throw error;
    }
  }
}

export type TokenCache = ReturnType<typeof createTokenCache>;
