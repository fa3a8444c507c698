import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { networkMatcher, parseNetworks } from './networks.ts';

describe('networks', () => {
  it('reads addresses and CIDR networks, and refuses anything else', () => {
    assert.deepEqual(parseNetworks('10.0.7.0/24, 2001:db8:7::/48,10.0.8.5'), [
      '10.0.7.0/24',
      '2001:db8:7::/48',
      '10.0.8.5/32',
    ]);
    for (const bad of ['10.0.7.0/33', 'example.com', '10.0.7.0/24,', '10.0.7', '*']) {
      assert.equal(parseNetworks(bad), undefined, bad);
    }
  });

  it('matches client addresses inside the networks, IPv4-mapped ones as IPv4', () => {
    const inside = networkMatcher(parseNetworks('10.0.7.0/24,2001:db8:7::/48')!);
    assert.equal(inside('10.0.7.9'), true);
    assert.equal(inside('::ffff:10.0.7.9'), true);
    assert.equal(inside('2001:db8:7:1::5'), true);
    assert.equal(inside('10.0.8.9'), false);
    assert.equal(inside('2001:db8:8::5'), false);
    assert.equal(inside('not an address'), false);
  });
});
