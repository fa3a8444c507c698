import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sessionHasEnded } from './session-lifetime.ts';

const HOUR = 3_600_000;
const lifetimes = { userMs: 12 * HOUR, adminMs: 8 * HOUR };

describe('the session lifetime', () => {
  it('counts from the password sign-in, with a shorter lifetime for administrators', () => {
    const authTimeMs = 1_000_000;
    const at = (hours: number) => authTimeMs + hours * HOUR;
    assert.equal(sessionHasEnded({ authTimeMs, nowMs: at(8), admin: true, lifetimes }), false);
    assert.equal(sessionHasEnded({ authTimeMs, nowMs: at(8) + 1, admin: true, lifetimes }), true);
    assert.equal(sessionHasEnded({ authTimeMs, nowMs: at(8) + 1, admin: false, lifetimes }), false);
    assert.equal(sessionHasEnded({ authTimeMs, nowMs: at(12), admin: false, lifetimes }), false);
    assert.equal(sessionHasEnded({ authTimeMs, nowMs: at(12) + 1, admin: false, lifetimes }), true);
  });
});
