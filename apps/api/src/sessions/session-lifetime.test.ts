import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sessionHasEnded, sessionLifetimeOf, sessionWentIdle } from './session-lifetime.ts';

const HOUR = 3_600_000;
const lifetimes = { userMs: 12 * HOUR, adminMs: 8 * HOUR, financeMs: 6 * HOUR, privilegedIdleMs: HOUR / 2 };

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

  it('gives the finance role its own shorter lifetime, and a person with two roles the shorter of them', () => {
    assert.equal(sessionLifetimeOf({ admin: false, finance: true }, lifetimes), 6 * HOUR);
    assert.equal(sessionLifetimeOf({ admin: true, finance: true }, lifetimes), 6 * HOUR);
    assert.equal(sessionLifetimeOf({ admin: true, finance: false }, lifetimes), 8 * HOUR);
    assert.equal(sessionLifetimeOf({ admin: false }, lifetimes), 12 * HOUR);
    const authTimeMs = 1_000_000;
    const finance = { admin: false, finance: true, lifetimes, authTimeMs };
    assert.equal(sessionHasEnded({ ...finance, nowMs: authTimeMs + 6 * HOUR }), false);
    assert.equal(sessionHasEnded({ ...finance, nowMs: authTimeMs + 6 * HOUR + 1 }), true);
  });

  it('ends a privileged session that went without a call for longer than its idle time', () => {
    assert.equal(sessionWentIdle({ lastSeenAtMs: 0, nowMs: HOUR / 2, idleMs: HOUR / 2 }), false);
    assert.equal(sessionWentIdle({ lastSeenAtMs: 0, nowMs: HOUR / 2 + 1, idleMs: HOUR / 2 }), true);
  });
});
