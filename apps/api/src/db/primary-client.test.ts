import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { primaryFollowingClient, primaryLocatorFor } from './primary-client.ts';

describe('a client that follows the primary', () => {
  it('hears a lost server before the pool or its caller listens, so the process lives', () => {
    // Seen in the failover drill: the server stopped while no listener of the pool's was on the connection yet.
    const locator = primaryLocatorFor(
      'postgres://portal@127.0.0.1:1,127.0.0.1:2/portal?target_session_attrs=read-write',
      1000,
    );
    const client = new (primaryFollowingClient(locator))();
    assert.doesNotThrow(() => client.emit('error', new Error('Connection terminated unexpectedly')));
  });
});
