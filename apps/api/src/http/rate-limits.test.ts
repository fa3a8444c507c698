import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWindowCounter } from './rate-limits.ts';

describe('createWindowCounter', () => {
  it('allows max calls per window, then answers the wait until the window resets', () => {
    let at = 1_000;
    const counter = createWindowCounter({ max: 2, windowMs: 60_000, now: () => at });
    assert.equal(counter.hit('a'), undefined);
    at += 10_000;
    assert.equal(counter.hit('a'), undefined);
    assert.equal(counter.hit('a'), 50_000);
    assert.equal(counter.hit('b'), undefined, 'keys are counted apart');
    at += 50_000;
    assert.equal(counter.hit('a'), undefined, 'a new window starts afresh');
  });

  it('holds at most maxKeys windows, forgetting the oldest first', () => {
    let at = 0;
    const counter = createWindowCounter({ max: 1, windowMs: 60_000, maxKeys: 2, now: () => at });
    counter.hit('a');
    at += 1;
    counter.hit('b');
    counter.hit('c'); // evicts "a"
    assert.equal(counter.hit('b'), 60_000, '"b" is still counted');
    assert.equal(counter.hit('a'), undefined, '"a" was forgotten');
  });
});
