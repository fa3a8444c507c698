import { createHash } from 'node:crypto';
import type { VerifiedToken } from './identity-provider.ts';

interface Entry {
  token: VerifiedToken;
  checkedAtMs: number;
}

/**
 * Remembers verified ID tokens by their hash (never the token itself) so a burst of requests costs one
 * verification; an entry is re-verified after `recheckMs`, which bounds how late a revocation is seen.
 */
export function createTokenCache(options: { recheckMs: number; maxEntries?: number; now?: () => number }) {
  const entries = new Map<string, Entry>();
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');

  return {
    async verify(token: string, verifyFresh: (token: string) => Promise<VerifiedToken>): Promise<VerifiedToken> {
      const key = keyOf(token);
      const hit = entries.get(key);
      const at = now();
      if (hit && at - hit.checkedAtMs < options.recheckMs && at < hit.token.expiresAtMs) return hit.token;
      entries.delete(key);
      const verified = await verifyFresh(token);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { token: verified, checkedAtMs: at });
      return verified;
    },
    /** Forgets every token of an account at once, so a deletion through this server is seen immediately. */
    evictUid(uid: string) {
      for (const [key, entry] of entries) if (entry.token.uid === uid) entries.delete(key);
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
