import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers/test-app.ts';

describe('draining', () => {
  const t = useTestApp();

  it('asks the client of every answer to reconnect: found, refused, unknown or unreadable addresses alike', async () => {
    const urls = ['/api/healthz', '/api/invoice?parcelCode=ABC123', '/api/no-such-route', '/api/users/%E0%A4%A'];
    const before = await Promise.all(urls.map((url) => t.app.inject({ url })));
    assert.deepEqual(
      before.map((answer) => answer.headers.connection),
      urls.map(() => 'keep-alive'),
    );
    t.app.readiness.draining = true;
    try {
      const during = await Promise.all(urls.map((url) => t.app.inject({ url })));
      assert.deepEqual(
        during.map((answer) => [answer.statusCode, answer.headers.connection]),
        [
          [200, 'close'],
          [401, 'close'],
          [404, 'close'],
          [400, 'close'],
        ],
      );
      const ready = await t.app.inject({ url: '/api/readyz' });
      assert.deepEqual([ready.statusCode, ready.headers.connection], [503, 'close']);
    } finally {
      t.app.readiness.draining = false;
    }
  });
});
