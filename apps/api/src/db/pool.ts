import pg from 'pg';
import { followsPrimary, primaryFollowingClient, primaryLocatorFor, type PrimaryLocator } from './primary-client.ts';

/** How long a connection attempt and a query may take before the caller gets an answer anyway. */
export interface DatabaseTimeouts {
  connectMs: number;
  queryMs: number;
}

/**
 * A pool that survives its server going away: a connection that dies, idle or busy, is dropped instead of
 * killing the process; connecting and querying give up in time, so a caller gets an error to answer with
 * rather than a hang; and every later call opens a new connection, so service returns with the server.
 */
export function openPool(url: string, timeouts: DatabaseTimeouts | undefined) {
  // Several servers or target_session_attrs=read-write: every connection is made to the one that takes writes.
  const locator = followsPrimary(url) ? primaryLocatorFor(url, timeouts?.connectMs) : undefined;
  const pool = new CheckoutGuardedPool(locator, {
    ...(locator ? { Client: primaryFollowingClient(locator) } : { connectionString: url }),
    max: 10,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    ...(timeouts && {
      connectionTimeoutMillis: timeouts.connectMs,
      // The server cancels the statement; the client stops waiting a little later should the server be silent.
      statement_timeout: timeouts.queryMs,
      query_timeout: timeouts.queryMs + 500,
      idle_in_transaction_session_timeout: 10 * timeouts.queryMs,
    }),
  });
  // An idle connection that dies is removed by the pool; the query that next needs one reports the outage. Its
  // siblings went to the same server: they go too, before a caller meets them.
  pool.on('error', (error) => pool.serverLost(error));
  // A connection lent out (a transaction) may die between two queries; the query fails, the process lives.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** The server is gone or no longer the primary (read-only, shutting down, refusing connections), not merely slow. */
export function isServerLost(error: unknown): boolean {
  if (!isDatabaseUnreachable(error)) return false;
  for (let current = error, depth = 0; current && depth < 5; current = (current as Error).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === '57014' || code === '53300') return false;
    // A slow answer, or a pool whose every connection is lent out (pg-pool's queue wait): the server is there.
    if (typeof message === 'string' && /query read timeout|timeout exceeded when trying to connect/i.test(message))
      return false;
  }
  return true;
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const UNREACHABLE_MESSAGES =
  /no database server accepts writes|no primary found within|connection terminated|timeout exceeded when trying to connect|query read timeout|connection timeout|client has encountered a connection error|cannot use a pool after calling end/i;

/**
 * True when an error means the database could not be reached or answer in time, rather than that it
 * refused a statement: connection refused, reset or timed out (Node codes, pg's own messages), the
 * server's connection-exception, shutdown, too-many-connections and statement-timeout SQLSTATEs, and a
 * server that answers read-only (25006: a replica, or a primary demoted by a failover; the portal never
 * asks for a read-only transaction itself).
 * Looks through `cause`, where the query builder keeps the driver's error.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as Error).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (UNREACHABLE_CODES.has(code)) return true;
      if (/^(08|57P0|53300|57014|25006)/.test(code)) return true;
    }
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnreachable)) return true;
  }
  return false;
}

/** A statement that only reads: run twice, it changes nothing (a locking read or a sequence would). */
const READ_ONLY_STATEMENT =
  /^\s*select\b(?![\s\S]*\b(for\s+(update|share|no\s+key\s+update|key\s+share)|nextval|setval|pg_advisory\w*|set_config|pg_notify)\b)/i;

type Generation = { generation?: number };

/**
 * A pool whose lent-out clients go back the way their connection ended up. drizzle's transaction releases its
 * client without an error whatever happened, and not at all when `begin` fails: a connection that stopped
 * answering (the client's query_timeout gave up on it, its query still "active") went back to the pool to
 * stall whoever took it next, and a failed `begin` kept its client lent out for good, ten of them the whole
 * pool. Here a checkout whose query failed for the connection is destroyed when released, and one whose
 * `begin` failed is released at once (drizzle's later release is then nothing).
 *
 * In a failover the server itself goes (or turns read-only): once one connection shows it, every connection
 * opened before is dropped as it is next taken, instead of each failing a caller in turn, and a read that
 * met the lost server is run once more on a new connection, which goes to the new primary if there is one.
 */
class CheckoutGuardedPool extends pg.Pool {
  private generation = 0;
  private readonly locator: PrimaryLocator | undefined;

  constructor(locator: PrimaryLocator | undefined, options: pg.PoolConfig) {
    super(options);
    this.locator = locator;
    this.on('connect', (client) => ((client as Generation).generation = this.generation));
  }

  /** The server the pool's connections went to is gone or demoted: none of them is lent again. */
  serverLost(error: unknown) {
    if (!isServerLost(error)) return;
    this.generation++;
    this.locator?.forget();
  }

  private isStale(client: pg.PoolClient) {
    return ((client as Generation).generation ?? this.generation) < this.generation;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  // The pool's own query() checks out with a callback and already releases with the error.
  override connect(callback?: Parameters<pg.Pool['connect']>[0]) {
    if (callback) {
      return super.connect((error, client, done) => {
        if (!error && client && this.isStale(client)) {
          done(new Error('connection to a server lost in a failover'));
          return this.connect(callback);
        }
        callback(error, client, done);
      });
    }
    return super.connect().then((client) => {
      if (!this.isStale(client)) return guardCheckout(client, this);
      client.release(new Error('connection to a server lost in a failover'));
      return this.connect();
    });
  }

  override query(...args: unknown[]): never {
    const run = () => (super.query as (...args: unknown[]) => unknown).apply(this, args);
    const result = run();
    if (!(result instanceof Promise)) return result as never;
    const [first] = args;
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
    return result.catch((error: unknown) => {
      this.serverLost(error);
      // Once: a second failure means there is no primary to read from yet, and the caller hears so at once.
      if (isServerLost(error) && typeof text === 'string' && READ_ONLY_STATEMENT.test(text)) return run();
      throw error;
    }) as never;
  }
}

function guardCheckout(client: pg.PoolClient, pool: CheckoutGuardedPool): pg.PoolClient {
  const release = client.release.bind(client);
  const query = client.query;
  let released = false;
  let connectionFault: Error | undefined;
  const releaseOnce = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    // The next checkout of this client guards it afresh.
    client.query = query;
    release(error || connectionFault);
  };
  client.release = releaseOnce;
  client.query = ((...args: unknown[]) => {
    const result = (query as (...args: unknown[]) => unknown).apply(client, args);
    if (!(result instanceof Promise)) return result;
    const [first] = args;
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
    return result.catch((error: unknown) => {
      if (isDatabaseUnreachable(error)) connectionFault ??= error as Error;
      pool.serverLost(error);
      if (typeof text === 'string' && /^\s*begin\b/i.test(text)) releaseOnce(error as Error);
      throw error;
    });
  }) as typeof client.query;
  return client;
}
