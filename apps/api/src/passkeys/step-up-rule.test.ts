import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeStepUp, signedInRecently } from './step-up-rule.ts';

const MINUTE = 60_000;

describe('the step-up rule', () => {
  it('holds from the confirmation until the recency has passed, and not a moment after', () => {
    const at = 1_000_000;
    assert.deepEqual(judgeStepUp({ steppedUpAtMs: at, nowMs: at, maxAgeMs: 10 * MINUTE }), {
      holds: true,
      expiresAtMs: at + 10 * MINUTE,
    });
    assert.equal(judgeStepUp({ steppedUpAtMs: at, nowMs: at + 10 * MINUTE - 1, maxAgeMs: 10 * MINUTE }).holds, true);
    assert.deepEqual(judgeStepUp({ steppedUpAtMs: at, nowMs: at + 10 * MINUTE, maxAgeMs: 10 * MINUTE }), {
      holds: false,
      why: 'expired',
    });
  });

  it('a sign-in that never confirmed is told apart from one whose confirmation ran out', () => {
    assert.deepEqual(judgeStepUp({ steppedUpAtMs: undefined, nowMs: 5, maxAgeMs: MINUTE }), {
      holds: false,
      why: 'none',
    });
  });

  it('a first passkey needs the password entered within the recency', () => {
    assert.equal(signedInRecently({ authTimeMs: 0, nowMs: 10 * MINUTE, maxAgeMs: 10 * MINUTE }), true);
    assert.equal(signedInRecently({ authTimeMs: 0, nowMs: 10 * MINUTE + 1, maxAgeMs: 10 * MINUTE }), false);
  });
});
