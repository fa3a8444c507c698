import pg from 'pg';
import { parseServerList, type DatabaseServer, type ServerList } from './server-list.ts';

/**
 * Nobody among the servers of DATABASE_URL accepts writes: the primary is down and no replica promoted yet,
 * or every one answers read-only. A failover in progress, which callers answer as an outage.
 */
export class NoWritableServerError extends Error {
  constructor(cause: unknown[]) {
    super('No database server accepts writes (a failover may be under way)', { cause: new AggregateError(cause) });
  }
}

/** True when a server takes writes: a replica in recovery, or one set read-only, does not. */
async function acceptsWrites(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ read_only: string }>(
    `select current_setting('transaction_read_only') as read_only`,
  );
  return rows[0]?.read_only === 'off';
}

/**
 * Which server of the list is the primary, found by asking each in turn (libpq's target_session_attrs=read-write)
 * and remembered until a connection to it fails or finds it read-only. One per DATABASE_URL in the process, so
 * the pool, the LISTEN connection and migrations learn of a failover from each other.
 */
export class PrimaryLocator {
  private known: DatabaseServer | undefined;
  private looking: Promise<DatabaseServer> | undefined;
  readonly list: ServerList;
  private readonly connectMs: number | undefined;

  constructor(list: ServerList, connectMs: number | undefined) {
    this.list = list;
    this.connectMs = connectMs;
  }

  primary(): Promise<DatabaseServer> {
    if (this.known) return Promise.resolve(this.known);
    this.looking ??= this.look().finally(() => (this.looking = undefined));
    return this.looking;
  }

  /** The server that was primary failed or answered read-only: ask again on the next connection. */
  forget(server?: DatabaseServer) {
    if (!server || server === this.known) this.known = undefined;
  }

  private async look(): Promise<DatabaseServer> {
    const faults: unknown[] = [];
    const waitMs = this.connectMs ?? DEFAULT_PROBE_MS;
    for (const server of this.list.servers) {
      // Every step has its time: one silent server (a lost machine, a full backlog) must not hold the search,
      // which every connection of the process waits on.
      const probe = new pg.Client({
        connectionString: this.list.urlFor(server),
        connectionTimeoutMillis: waitMs,
        query_timeout: waitMs,
      });
      probe.on('error', () => {});
      try {
        await probe.connect();
        if (this.list.targetSessionAttrs === 'any' || (await acceptsWrites(probe))) return (this.known = server);
        faults.push(new Error(`${server.host}:${server.port} is read-only`));
      } catch (error) {
        faults.push(error);
      } finally {
        await endWithin(probe, waitMs);
      }
    }
    throw new NoWritableServerError(faults);
  }
}

/** How long a probe waits for each step when DATABASE_CONNECT_TIMEOUT_MS gives no time (a one-off client). */
const DEFAULT_PROBE_MS = 10_000;

/** Ends a connection politely, or drops its socket when the server does not answer in time. */
async function endWithin(client: pg.Client, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([client.end().catch(() => {}), late]);
  clearTimeout(timer);
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * Settles as `promise` does, or rejects after `ms`. Not in pg-pool's words for a busy pool: a search that outlasts
 * a connection's time means the servers did not answer, and the pool drops what it holds.
 */
function within<T>(promise: Promise<T>, ms: number | undefined): Promise<T> {
  if (!ms) return promise;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no primary found within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const locators = new Map<string, PrimaryLocator>();

/** Whether a URL needs the locator: several servers, or a demand for a writable one. */
export function followsPrimary(url: string): boolean {
  const list = parseServerList(url);
  return list.servers.length > 1 || list.targetSessionAttrs === 'read-write';
}

export function primaryLocatorFor(url: string, connectMs: number | undefined): PrimaryLocator {
  let locator = locators.get(url);
  if (!locator) locators.set(url, (locator = new PrimaryLocator(parseServerList(url), connectMs)));
  return locator;
}

type ClientInternals = { connectionParameters: { host: string; port: number } };

/**
 * A node-postgres client that connects to the locator's primary and checks, once connected, that it still
 * takes writes (a demoted primary that came back, or a replica just promoted elsewhere). The pool makes these
 * (its `Client` option); one-shot connections (migrations, LISTEN) are made the same way.
 */
export function primaryFollowingClient(locator: PrimaryLocator) {
  return class PrimaryFollowingClient extends pg.Client {
    server: DatabaseServer | undefined;

    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connectionString: locator.list.urlFor(locator.list.servers[0]!) });
      // node-postgres emits 'error' for a lost server even while a query waits: lost during the check below that
      // it takes writes, before the pool or the caller listens, it would go unheard and end the process. The
      // check still fails with it, and the pool drops the connection.
      this.on('error', () => {});
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (error: Error) => void): void;
    override connect(callback?: (error: Error) => void): Promise<pg.Client> | void {
      const connected = this.connectToPrimary().then(() => this as pg.Client);
      if (!callback) return connected;
      connected.then(() => callback(null as never), callback);
    }

    private async connectToPrimary(): Promise<void> {
      // The pool's own connection timeout does not reach this wait (it only drops a socket, which is not opened
      // yet): without a bound of its own, a search that never ends would hold this checkout, and its caller, forever.
      const connectMs = (this as unknown as { _connectionTimeoutMillis?: number })._connectionTimeoutMillis;
      const server = await within(locator.primary(), connectMs);
      this.server = server;
      const parameters = (this as unknown as ClientInternals).connectionParameters;
      this.host = parameters.host = server.host.replace(/^\[(.*)\]$/, '$1');
      this.port = parameters.port = server.port;
      try {
        await new Promise<void>((resolve, reject) =>
          super.connect((error: Error | undefined) => (error ? reject(error) : resolve())),
        );
      } catch (error) {
        locator.forget(server);
        throw error;
      }
      if (locator.list.targetSessionAttrs === 'any' || (await acceptsWrites(this))) return;
      locator.forget(server);
      await this.end().catch(() => {});
      throw new NoWritableServerError([new Error(`${server.host}:${server.port} is read-only`)]);
    }
  };
}

/** A client for one connection of its own (not pooled) on the server that takes writes. */
export function databaseClient(url: string, config: Omit<pg.ClientConfig, 'connectionString'> = {}): pg.Client {
  if (!followsPrimary(url)) return new pg.Client({ ...config, connectionString: url });
  const Client = primaryFollowingClient(primaryLocatorFor(url, config.connectionTimeoutMillis));
  return new Client(config);
}
