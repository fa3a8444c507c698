import { randomUUID } from 'node:crypto';
import type net from 'node:net';
import pg from 'pg';
import { databaseClient } from './primary-client.ts';

/**
 * What a subscriber to a NOTIFY channel hears. `onLive(false)` says notifications may be missed from now on
 * (the connection dropped, or it has not proved itself lately), `onLive(true)` that they arrive again —
 * anything remembered from before may be stale, since what was sent in between may be lost.
 */
export interface ChannelSubscriber {
  onNotify(payload: string): void;
  onLive(live: boolean): void;
  /** The listener heard its own heartbeat back: the channel proved itself just now. */
  onHeartbeat?(): void;
}

export interface ChannelListener {
  close(): Promise<void>;
}

export interface HeartbeatOptions {
  /** How often the listener notifies its own channel and expects to hear it back. */
  intervalMs: number;
  /** A heartbeat not heard back within this makes the channel unknown: the subscriber is told it is not live. */
  answerWithinMs: number;
  /** Nothing heard back for this long: the connection is given up and a new one made. */
  reconnectAfterMs: number;
}

/**
 * A silently dead connection (an idle timeout in a firewall, a pooler that lost the session) gives no error:
 * TCP keepalive would notice after two hours. So the listener proves its connection every 2 s, and a
 * subscriber stops trusting it within 1 s of a missed answer: at most about 3 s after the connection died.
 */
export const DEFAULT_HEARTBEAT: HeartbeatOptions = { intervalMs: 2000, answerWithinMs: 1000, reconnectAfterMs: 8000 };

/** Heartbeats travel on the watched channel itself, so what they prove is that this channel's notices arrive. */
const HEARTBEAT_PREFIX = '~heartbeat ';

const RETRY_MIN_MS = 100;
const DEFAULT_CONNECT_MS = 10_000;
const RETRY_MAX_MS = 5000;

/**
 * LISTENs on one channel over its own connection (a pooled one would be handed back and lose the LISTEN),
 * and reconnects on its own, with backoff, after the database restarts or the connection breaks. The channel
 * counts as live only while this listener hears its own heartbeats: a connection that neither errors nor
 * delivers is found out within `answerWithinMs` of the next heartbeat. Heartbeats (any listener's) never
 * reach the subscriber.
 */
export function listenOnPostgres(
  url: string,
  channel: string,
  subscriber: ChannelSubscriber,
  heartbeat: HeartbeatOptions = DEFAULT_HEARTBEAT,
  /** How long connecting (and the LISTEN) may take before it counts as a lost connection and is tried again. */
  connectMs = DEFAULT_CONNECT_MS,
): ChannelListener {
  const id = randomUUID();
  let client: pg.Client | undefined;
  let closed = false;
  let live = false;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let stopHeartbeats = () => {};

  function setLive(next: boolean) {
    if (live === next) return;
    live = next;
    subscriber.onLive(next);
  }

  function scheduleReconnect() {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  async function connect() {
    // Bounded: a connection attempt that never ends would never fail either, and so never be tried again.
    const next = databaseClient(url, { keepAlive: true, connectionTimeoutMillis: connectMs, query_timeout: connectMs });
    let lost = false;
    let beat = 0;
    let awaited: { payload: string; deadline: NodeJS.Timeout } | undefined;
    let lastHeardMs = performance.now();
    const timers: { beats?: NodeJS.Timeout } = {};
    stopHeartbeats = () => {
      clearInterval(timers.beats);
      clearTimeout(awaited?.deadline);
    };

    const onLost = () => {
      if (lost) return;
      lost = true;
      stopHeartbeats();
      if (client === next) client = undefined;
      setLive(false);
      next.removeAllListeners('notification');
      next.on('error', () => {});
      // end() waits for the server to close, which a silent connection never does: drop the socket.
      socketOf(next)?.destroy();
      scheduleReconnect();
    };

    function sendHeartbeat() {
      if (lost || closed) return;
      if (performance.now() - lastHeardMs > heartbeat.reconnectAfterMs) return onLost();
      // The previous one is still on its way: its deadline decides, and a silent socket gets no pile of queries.
      if (awaited) return;
      const payload = `${HEARTBEAT_PREFIX}${id} ${++beat}`;
      const deadline = setTimeout(() => setLive(false), heartbeat.answerWithinMs);
      deadline.unref();
      awaited = { payload, deadline };
      next.query('select pg_notify($1, $2)', [channel, payload]).catch(onLost);
    }

    next.on('error', onLost);
    next.on('end', onLost);
    next.on('notification', (message) => {
      if (message.channel !== channel) return;
      const payload = message.payload ?? '';
      if (!payload.startsWith(HEARTBEAT_PREFIX)) return subscriber.onNotify(payload);
      if (payload !== awaited?.payload) return;
      // Notices arrive in order on one connection: every one sent before this heartbeat has been heard.
      clearTimeout(awaited.deadline);
      awaited = undefined;
      lastHeardMs = performance.now();
      setLive(true);
      subscriber.onHeartbeat?.();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      onLost();
      return;
    }
    if (closed) {
      stopHeartbeats();
      await endWithin(next, CLOSE_WITHIN_MS);
      return;
    }
    client = next;
    retryMs = RETRY_MIN_MS;
    lastHeardMs = performance.now();
    // Started only now: a heartbeat queued before the LISTEN would go out first and never be heard.
    timers.beats = setInterval(sendHeartbeat, heartbeat.intervalMs);
    timers.beats.unref();
    // Live once the first heartbeat comes back, not on LISTEN alone: that proves the way back works too.
    sendHeartbeat();
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      stopHeartbeats();
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('error');
        current.removeAllListeners('notification');
        current.on('error', () => {});
        await endWithin(current, CLOSE_WITHIN_MS);
      }
    },
  };
}

const CLOSE_WITHIN_MS = 1000;

const socketOf = (client: pg.Client) =>
  (client as unknown as { connection?: { stream?: net.Socket } }).connection?.stream;

/** Ends the session politely, or drops the socket when the server does not answer in time (a dead link). */
async function endWithin(client: pg.Client, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([client.end().catch(() => {}), late]);
  clearTimeout(timer);
  socketOf(client)?.destroy();
}
