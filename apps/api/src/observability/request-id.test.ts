import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestIdGenerator, requestIdSequence } from './request-id.ts';
import type { IncomingMessage } from 'node:http';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('never repeats within a process, and keeps the shape of a UUID', () => {
    const next = requestIdSequence();
    const ids = new Set<string>();
    for (let i = 0; i < 200_000; i++) {
      const id = next();
      assert.match(id, UUID_SHAPE);
      ids.add(id);
    }
    assert.equal(ids.size, 200_000);
  });

  it('differs between processes: each draws its own random part once', () => {
    const prefixes = new Set(Array.from({ length: 50 }, () => requestIdSequence()().slice(0, 24)));
    assert.equal(prefixes.size, 50);
  });

  it("counts in the last group, so one process's ids follow the order its requests came in", () => {
    const next = requestIdSequence();
    const [first, second] = [next(), next()];
    assert.equal(first.slice(0, 24), second.slice(0, 24));
    assert.equal(Number.parseInt(second.slice(24), 16) - Number.parseInt(first.slice(24), 16), 1);
  });

  it("gives each request of an untrusted peer the sequence's next id, whatever X-Request-Id it sends", () => {
    const generate = requestIdGenerator({ trustProxy: false });
    const request = (headers: Record<string, string>) =>
      ({ headers, socket: { remoteAddress: '203.0.113.7' } }) as unknown as IncomingMessage;
    const a = generate(request({ 'x-request-id': 'chosen-by-the-client-0001' }));
    const b = generate(request({}));
    assert.match(a, UUID_SHAPE);
    assert.match(b, UUID_SHAPE);
    assert.notEqual(a, b);
  });
});
