import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientKey } from './client-key.ts';

describe('clientKey', () => {
  it('keys IPv4 clients by their address', () => {
    assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
  });

  it('keys IPv6 clients by their /64, however the address is written', () => {
    assert.equal(clientKey('2001:db8:1:2::1'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:0db8:0001:0002:ffff:eeee:dddd:cccc'), '2001:db8:1:2::/64');
    assert.equal(clientKey('2001:db8::'), '2001:db8:0:0::/64');
    assert.notEqual(clientKey('2001:db8:1:3::1'), clientKey('2001:db8:1:2::1'));
  });

  it('keys IPv4-mapped IPv6 addresses as the IPv4 address they carry', () => {
    assert.equal(clientKey('::ffff:198.51.100.4'), '198.51.100.4');
  });
});
