import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { firstServerUrl, parseServerList, ServerListError } from './server-list.ts';
import { isDatabaseUnreachable, isServerLost } from './pool.ts';
import { asUnavailable } from '../dependency-unavailable.ts';

describe('a DATABASE_URL naming several servers', () => {
  it('reads every server, the default port, and target_session_attrs', () => {
    const list = parseServerList(
      'postgres://u:p%40w@db-a:5433,db-b,[::1]:6000/portal?sslmode=require&target_session_attrs=read-write',
    );
    assert.deepEqual(list.servers, [
      { host: 'db-a', port: 5433 },
      { host: 'db-b', port: 5432 },
      { host: '[::1]', port: 6000 },
    ]);
    assert.equal(list.targetSessionAttrs, 'read-write');
    // Each server's own URL, which node-postgres and the URL parser understand; the attribute is the portal's.
    assert.equal(list.urlFor(list.servers[1]!), 'postgres://u:p%40w@db-b:5432/portal?sslmode=require');
    assert.equal(new URL(list.urlFor(list.servers[2]!)).hostname, '[::1]');
  });

  it('takes primary for read-write and any by default, and refuses what the portal cannot work with', () => {
    assert.equal(parseServerList('postgres://h/db?target_session_attrs=primary').targetSessionAttrs, 'read-write');
    assert.equal(parseServerList('postgresql://h1,h2/db').targetSessionAttrs, 'any');
    assert.throws(() => parseServerList('postgres://h1,h2/db?target_session_attrs=standby'), /use read-write/);
    assert.throws(() => parseServerList('postgres://h1,:5/db'), ServerListError);
    assert.throws(() => parseServerList('mysql://h/db'), ServerListError);
    assert.equal(firstServerUrl('postgres://u:p@a:1,b:2/db'), 'postgres://u:p@a:1/db');
  });
});

describe('what a failover looks like to the pool', () => {
  it('takes a read-only server, a shutdown and a server that cannot take connections yet for an outage: 503, never 500', () => {
    for (const code of ['25006', '57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET']) {
      const error = new Error('query failed', { cause: Object.assign(new Error('driver'), { code }) });
      assert.ok(isDatabaseUnreachable(error), code);
      assert.ok(isServerLost(error), code);
      assert.equal(asUnavailable(error)?.statusCode, 503, code);
    }
    // No server named took writes within a connection's time: a failover under way, not a busy pool.
    const unanswered = new Error('no primary found within 5000 ms');
    assert.ok(isDatabaseUnreachable(unanswered));
    assert.ok(isServerLost(unanswered));
    assert.equal(asUnavailable(unanswered)?.statusCode, 503);
  });

  it('keeps the connections for a slow statement or a full server: the server is still there', () => {
    for (const error of [
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('too many connections'), { code: '53300' }),
      new Error('Query read timeout'),
      // pg-pool's words when every connection is lent out for longer than a caller may wait: a busy pool.
      new Error('timeout exceeded when trying to connect'),
    ]) {
      assert.ok(isDatabaseUnreachable(error));
      assert.ok(!isServerLost(error), error.message);
    }
    assert.ok(!isServerLost(Object.assign(new Error('duplicate key'), { code: '23505' })));
  });
});
