import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAnonymousBudget } from './anonymous-budget.ts';

describe('the anonymous budget', () => {
  const clocked = (perSecond: number, concurrency: number) => {
    let nowMs = 0;
    const budget = createAnonymousBudget({ perSecond, concurrency, now: () => nowMs });
    return { budget, advance: (ms: number) => (nowMs += ms) };
  };

  it('lets one second of calls through at once, then as many a second as it is given', () => {
    const { budget, advance } = clocked(4, 100);
    for (let i = 0; i < 4; i++) {
      assert.equal(budget.roomNow(), undefined);
      budget.take().release();
    }
    assert.equal(budget.roomNow(), 250, 'the next call may start when a quarter second has refilled one');
    advance(250);
    assert.equal(budget.roomNow(), undefined);
    budget.take().release();
    // A long quiet time refills one second's worth, not more: no saving up for a burst.
    advance(60_000);
    for (let i = 0; i < 4; i++) budget.take().release();
    assert.notEqual(budget.roomNow(), undefined);
  });

  it('holds a place per call under way, until it is released (once, however often release is called)', () => {
    const { budget } = clocked(1000, 2);
    const first = budget.take();
    const second = budget.take();
    assert.equal(budget.inFlight(), 2);
    assert.equal(budget.roomNow(), 1000, 'full: try again in a second');
    first.release();
    first.release();
    assert.equal(budget.inFlight(), 1);
    assert.equal(budget.roomNow(), undefined);
    second.release();
    assert.equal(budget.inFlight(), 0);
  });
});
