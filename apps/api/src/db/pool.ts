import pg from 'pg';

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
  const pool = new CheckoutGuardedPool({
    connectionString: url,
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
  // An idle connection that dies is removed by the pool; the query that next needs one reports the outage.
  pool.on('error', () => {});
  // A connection lent out (a transaction) may die between two queries; the query fails, the process lives.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const UNREACHABLE_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|connection timeout|client has encountered a connection error|cannot use a pool after calling end/i;

/**
 * True when an error means the database could not be reached or answer in time, rather than that it
 * refused a statement: connection refused, reset or timed out (Node codes, pg's own messages), and the
 * server's connection-exception, shutdown, too-many-connections and statement-timeout SQLSTATEs.
 * Looks through `cause`, where the query builder keeps the driver's error.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as Error).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (UNREACHABLE_CODES.has(code)) return true;
      if (/^(08|57P0|53300|57014)/.test(code)) return true;
    }
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnreachable)) return true;
  }
  return false;
}

/**
 * A pool whose lent-out clients go back the way their connection ended up. drizzle's transaction releases its
 * client without an error whatever happened, and not at all when `begin` fails: a connection that stopped
 * answering (the client's query_timeout gave up on it, its query still "active") went back to the pool to
 * stall whoever took it next, and a failed `begin` kept its client lent out for good, ten of them the whole
 * pool. Here a checkout whose query failed for the connection is destroyed when released, and one whose
 * `begin` failed is released at once (drizzle's later release is then nothing).
 */
class CheckoutGuardedPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  // The pool's own query() checks out with a callback and already releases with the error.
  override connect(callback?: Parameters<pg.Pool['connect']>[0]) {
    if (callback) return super.connect(callback);
    return super.connect().then(guardCheckout);
  }
}

function guardCheckout(client: pg.PoolClient): pg.PoolClient {
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
      if (typeof text === 'string' && /^\s*begin\b/i.test(text)) releaseOnce(error as Error);
      throw error;
    });
  }) as typeof client.query;
  return client;
}
