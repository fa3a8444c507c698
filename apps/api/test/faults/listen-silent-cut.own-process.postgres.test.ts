/**
 * The listening connection dying without a word: a firewall's idle timeout or a pooler losing the session
 * leaves the socket open and simply stops delivering. Only the heartbeat can tell; these tests cut the
 * connection that way (a proxy that stops forwarding and keeps it open) and time how soon it is noticed.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { DEFAULT_HEARTBEAT, listenOnPostgres, type ChannelListener } from '../../src/db/notifications.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

// Why a process of its own (.own-process): it silences the database's notices through a proxy and times the heartbeat.

const realUrl = new URL(process.env.DATABASE_URL ?? '');
const CHANNEL = 'heartbeat_test';
/** The next heartbeat, its deadline, and a little for a busy machine. */
const NOTICED_WITHIN_MS = DEFAULT_HEARTBEAT.intervalMs + DEFAULT_HEARTBEAT.answerWithinMs + 1000;

describe('a LISTEN connection that goes silent', () => {
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let notifier: pg.Client;
  let listener: ChannelListener | undefined;

  before(async () => {
    proxy = await startTcpProxy({ host: realUrl.hostname, port: Number(realUrl.port || 5432) });
    notifier = new pg.Client({ connectionString: realUrl.href });
    await notifier.connect();
  });
  after(async () => {
    await listener?.close();
    await notifier.end();
    await proxy.close();
  });

  function subscriber() {
    const events: { at: number; event: string }[] = [];
    const heard: string[] = [];
    let waiters: (() => void)[] = [];
    const record = (event: string) => {
      events.push({ at: performance.now(), event });
      for (const wake of waiters) wake();
      waiters = [];
    };
    return {
      events,
      heard,
      onNotify: (payload: string) => {
        heard.push(payload);
        record(`notify ${payload}`);
      },
      onLive: (live: boolean) => record(live ? 'live' : 'not live'),
      async until(event: string, withinMs: number): Promise<number> {
        const started = performance.now();
        for (;;) {
          const found = events.find((entry) => entry.event === event && entry.at >= started);
          if (found) return found.at - started;
          const left = withinMs - (performance.now() - started);
          if (left <= 0)
            assert.fail(`no "${event}" within ${withinMs} ms; saw ${events.map((e) => e.event).join(', ')}`);
          await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), sleep(left)]);
        }
      },
    };
  }

  it('is live only once its own heartbeat came back, and never passes heartbeats on', async () => {
    const heard = subscriber();
    const proxied = new URL(realUrl);
    proxied.host = `127.0.0.1:${proxy.port}`;
    listener = listenOnPostgres(proxied.href, CHANNEL, heard);
    await heard.until('live', 5000);
    await notifier.query('select pg_notify($1, $2)', [CHANNEL, 'someone@example.com']);
    await heard.until('notify someone@example.com', 2000);
    await sleep(DEFAULT_HEARTBEAT.intervalMs * 2);
    assert.deepEqual(heard.heard, ['someone@example.com'], 'heartbeats stay inside the listener');
    await listener.close();
    listener = undefined;
  });

  it(`notices within ${NOTICED_WITHIN_MS} ms that notices stopped arriving, then listens again by itself`, async (test) => {
    const heard = subscriber();
    const proxied = new URL(realUrl);
    proxied.host = `127.0.0.1:${proxy.port}`;
    listener = listenOnPostgres(proxied.href, CHANNEL, heard);
    await heard.until('live', 5000);

    const stalled = proxy.stallConnectionsThatSent('LISTEN');
    assert.equal(stalled, 1, 'the listening connection, and only it, goes silent');
    const stalledAt = performance.now();
    // Sent now, it is lost with the connection: the subscriber must not go on believing its cache.
    await notifier.query('select pg_notify($1, $2)', [CHANNEL, 'lost@example.com']);
    const noticedMs = await heard.until('not live', NOTICED_WITHIN_MS);
    // New connections pass the proxy: the listener replaces the silent one and proves it again.
    const backMs = await heard.until('live', DEFAULT_HEARTBEAT.reconnectAfterMs + 5000);
    assert.ok(!heard.heard.includes('lost@example.com'), 'the lost notice was never heard');
    await notifier.query('select pg_notify($1, $2)', [CHANNEL, 'after@example.com']);
    await heard.until('notify after@example.com', 2000);
    test.diagnostic(
      `silent cut noticed after ${noticedMs.toFixed(0)} ms; listening again ${backMs.toFixed(0)} ms after that (${(performance.now() - stalledAt).toFixed(0)} ms in all)`,
    );
    await listener.close();
    listener = undefined;
  });
});
