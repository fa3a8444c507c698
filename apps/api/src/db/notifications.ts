import pg from 'pg';

/**
 * What a subscriber to a NOTIFY channel hears. `onLive(false)` says notifications may be missed from now on
 * (the connection dropped), `onLive(true)` that they arrive again — anything remembered from before may be
 * stale, since what was sent in between is lost.
 */
export interface ChannelSubscriber {
  onNotify(payload: string): void;
  onLive(live: boolean): void;
}

export interface ChannelListener {
  close(): Promise<void>;
}

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5000;

/**
 * LISTENs on one channel over its own connection (a pooled one would be handed back and lose the LISTEN),
 * and reconnects on its own, with backoff, after the database restarts or the connection breaks.
 */
export function listenOnPostgres(url: string, channel: string, subscriber: ChannelSubscriber): ChannelListener {
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;

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
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      subscriber.onLive(false);
      next.removeAllListeners('notification');
      void next.end().catch(() => {});
      scheduleReconnect();
    };
    next.on('error', onLost);
    next.on('end', onLost);
    next.on('notification', (message) => {
      if (message.channel === channel) subscriber.onNotify(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      onLost();
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    retryMs = RETRY_MIN_MS;
    subscriber.onLive(true);
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('error');
        current.on('error', () => {});
        await current.end().catch(() => {});
      }
    },
  };
}
