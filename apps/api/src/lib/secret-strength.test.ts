import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { estimatedBits, MIN_SECRET_BITS, weakSecretReason } from './secret-strength.ts';

describe('how hard a token is to guess', () => {
  it('never refuses what `openssl rand` makes: 2,000 random tokens of each usual shape', () => {
    for (let round = 0; round < 2000; round++) {
      for (const token of [
        randomBytes(32).toString('base64'),
        randomBytes(32).toString('base64url'),
        randomBytes(32).toString('hex'),
        randomBytes(16).toString('hex'),
      ]) {
        assert.equal(weakSecretReason(token), undefined, token);
      }
    }
  });

  it('refuses what a person types or a counter makes', () => {
    assert.match(weakSecretReason('x'.repeat(48))!, /repeats/);
    assert.match(weakSecretReason('ingest-ingest-ingest-ingest-2026')!, /repeats/);
    assert.match(weakSecretReason('abcdefghijklmnopqrstuvwxyz0123456789')!, /consecutive/);
    assert.match(weakSecretReason('aabbaabbabababbbaaababbabaabbbab1')!, new RegExp(`fewer than ${MIN_SECRET_BITS}`));
    assert.equal(estimatedBits(''), 0);
  });
});
