import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdentityProviderUnavailableError, InvalidTokenError, type VerifiedToken } from './identity-provider.ts';
import { createTokenCache } from './token-cache.ts';

const HOUR_MS = 3_600_000;

function verifiedAt(nowMs: number, uid = 'uid-1'): VerifiedToken {
  return {
    uid,
    email: `${uid}@example.com`,
    expiresAtMs: nowMs + HOUR_MS,
    authTimeMs: nowMs,
    signInProvider: 'password',
    tenant: undefined,
    emailVerified: true,
    providerSubject: undefined,
  };
}

/** A provider whose answers the test releases one call at a time. */
function heldProvider() {
  const calls: { token: string; answer: (outcome: VerifiedToken | Error) => void }[] = [];
  const verifyFresh = (token: string) =>
    new Promise<VerifiedToken>((resolve, reject) => {
      calls.push({ token, answer: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)) });
    });
  return { calls, verifyFresh };
}

describe('createTokenCache', () => {
  it('verifies a token once however many requests for it arrive while its verification is under way', async () => {
    let nowMs = 1_000_000;
    const cache = createTokenCache({ recheckMs: 5_000, now: () => nowMs });
    const provider = heldProvider();
    const waiting = Array.from({ length: 5 }, () => cache.verify('token-a', provider.verifyFresh));
    assert.equal(provider.calls.length, 1, 'one call to the provider for five requests');
    provider.calls[0]!.answer(verifiedAt(nowMs));
    for (const verified of await Promise.all(waiting)) assert.equal(verified.uid, 'uid-1');

    // Due again: once more, and once only.
    nowMs += 5_000;
    const again = [cache.verify('token-a', provider.verifyFresh), cache.verify('token-a', provider.verifyFresh)];
    assert.equal(provider.calls.length, 2);
    provider.calls[1]!.answer(verifiedAt(nowMs));
    await Promise.all(again);
    // Another token is verified on its own.
    void Promise.resolve(cache.verify('token-b', provider.verifyFresh)).catch(() => {});
    assert.equal(provider.calls.length, 3);
    assert.equal(provider.calls[2]!.token, 'token-b');
    provider.calls[2]!.answer(new InvalidTokenError('invalid'));
  });

  it('answers a token verified lately without a promise, and one due for its re-check with one', async () => {
    let nowMs = 1_000_000;
    const cache = createTokenCache({ recheckMs: 5_000, now: () => nowMs });
    const provider = heldProvider();
    const first = cache.verify('token-a', provider.verifyFresh);
    assert.ok(first instanceof Promise);
    provider.calls[0]!.answer(verifiedAt(nowMs));
    await first;
    assert.equal((cache.verify('token-a', provider.verifyFresh) as VerifiedToken).uid, 'uid-1');
    nowMs += 5_000;
    assert.ok(cache.verify('token-a', provider.verifyFresh) instanceof Promise, 'due: asks the provider again');
    assert.equal(provider.calls.length, 2);
  });

  it('refuses every waiter of a verification that fails, and verifies afresh on the next request', async () => {
    const cache = createTokenCache({ recheckMs: 5_000 });
    const provider = heldProvider();
    const waiting = [cache.verify('token-a', provider.verifyFresh), cache.verify('token-a', provider.verifyFresh)];
    provider.calls[0]!.answer(new InvalidTokenError('revoked'));
    for (const outcome of await Promise.allSettled(waiting)) {
      assert.equal(outcome.status, 'rejected');
      assert.ok(outcome.reason instanceof InvalidTokenError);
    }
    const next = cache.verify('token-a', provider.verifyFresh);
    assert.equal(provider.calls.length, 2, 'a refusal is never remembered');
    provider.calls[1]!.answer(verifiedAt(Date.now()));
    await next;
  });

  it('lets a request made after an account was forgotten wait for no verification begun before', async () => {
    const cache = createTokenCache({ recheckMs: 5_000 });
    const provider = heldProvider();
    const before = cache.verify('token-a', provider.verifyFresh);
    cache.evictUid('uid-1');
    const after = Promise.resolve(cache.verify('token-a', provider.verifyFresh)).catch((error: unknown) => error);
    assert.equal(provider.calls.length, 2, 'the request after the eviction asks the provider itself');
    // The earlier one vouched for the account before it was deleted; the later one hears it is gone.
    provider.calls[0]!.answer(verifiedAt(Date.now()));
    provider.calls[1]!.answer(new InvalidTokenError('gone'));
    await before;
    assert.ok((await after) instanceof InvalidTokenError);
    // And what the earlier verification said is not remembered past the eviction.
    const third = Promise.resolve(cache.verify('token-a', provider.verifyFresh)).catch((error: unknown) => error);
    assert.equal(provider.calls.length, 3);
    provider.calls[2]!.answer(new InvalidTokenError('gone'));
    assert.ok((await third) instanceof InvalidTokenError);
  });

  it('still answers each waiter from its grace while the provider is unavailable', async () => {
    let nowMs = 1_000_000;
    const cache = createTokenCache({ recheckMs: 5_000, outageGraceMs: 60_000, now: () => nowMs });
    const provider = heldProvider();
    const first = cache.verify('token-a', provider.verifyFresh);
    provider.calls[0]!.answer(verifiedAt(nowMs));
    await first;
    nowMs += 6_000;
    const waiting = [cache.verify('token-a', provider.verifyFresh), cache.verify('token-a', provider.verifyFresh)];
    assert.equal(provider.calls.length, 2);
    provider.calls[1]!.answer(new IdentityProviderUnavailableError('away'));
    for (const verified of await Promise.all(waiting)) assert.equal(verified.uid, 'uid-1');
    // Past the grace, the outage is the answer.
    nowMs += 60_000;
    const late = Promise.resolve(cache.verify('token-a', provider.verifyFresh)).catch((error: unknown) => error);
    provider.calls.at(-1)!.answer(new IdentityProviderUnavailableError('away'));
    assert.ok((await late) instanceof IdentityProviderUnavailableError);
  });

  it('keys each token of a connection apart when the connection sends another', async () => {
    const cache = createTokenCache({ recheckMs: 5_000 });
    const connection = {};
    const asked: string[] = [];
    const verifyFresh = async (token: string) => {
      asked.push(token);
      if (token === 'token-b') throw new InvalidTokenError('invalid');
      return verifiedAt(Date.now(), `uid-of-${token}`);
    };
    assert.equal((await cache.verify('token-a', verifyFresh, connection)).uid, 'uid-of-token-a');
    assert.equal((await cache.verify('token-a', verifyFresh, connection)).uid, 'uid-of-token-a');
    await assert.rejects(async () => cache.verify('token-b', verifyFresh, connection), InvalidTokenError);
    assert.equal((await cache.verify('token-c', verifyFresh, connection)).uid, 'uid-of-token-c');
    // The first token again, over this connection and over another: still its own entry, still cached.
    assert.equal((await cache.verify('token-a', verifyFresh, connection)).uid, 'uid-of-token-a');
    assert.equal((await cache.verify('token-a', verifyFresh, {})).uid, 'uid-of-token-a');
    assert.equal((await cache.verify('token-a', verifyFresh)).uid, 'uid-of-token-a');
    assert.deepEqual(asked, ['token-a', 'token-b', 'token-c']);
  });
});
