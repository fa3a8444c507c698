/**
 * The PostgreSQL the test suites use: DATABASE_URL, else the role `scripts/setup-machine.sh` creates on
 * this machine. A suite that needs it and cannot reach it stops with what to run, never skips its pass.
 */
import type { Socket } from 'node:net';
import pg from 'pg';

export const SETUP_COMMAND = 'bash scripts/setup-machine.sh';
export const LOCAL_TEST_DATABASE_URL = 'postgres://portal_test:portal_test@127.0.0.1:5432/portal_test';

export function testDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL || LOCAL_TEST_DATABASE_URL;
}

/** Where the URL points, without its password: for messages. */
export function describeDatabaseUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.username || '(default role)'}@${url.host}${url.pathname}`;
  } catch {
    return '(an unreadable DATABASE_URL)';
  }
}

/**
 * Connects once and checks the role may create databases (the topology suite and the benchmarks make
 * their own beside it). Resolves to a problem to show a person, or undefined when all is well.
 */
export async function checkTestDatabase(databaseUrl: string, timeoutMs = 3000): Promise<string | undefined> {
  const where = describeDatabaseUrl(databaseUrl);
  const fromEnv = databaseUrl !== LOCAL_TEST_DATABASE_URL;
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    const { rows } = await client.query<{ rolcreatedb: boolean }>(
      'select rolcreatedb from pg_roles where rolname = current_user',
    );
    if (rows[0]?.rolcreatedb !== true) {
      return `PostgreSQL: the role in ${where} may not create databases (ALTER ROLE … CREATEDB)`;
    }
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fromEnv
      ? `PostgreSQL: cannot use DATABASE_URL (${where}): ${reason}`
      : `PostgreSQL: DATABASE_URL is not set and the local test database (${where}) answers: ${reason}. ` +
          `\`${SETUP_COMMAND}\` installs and starts PostgreSQL 15 and creates it, or set DATABASE_URL`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A run of the same suite already holds the test database. */
export class TestDatabaseInUseError extends Error {}

/**
 * Holds the test database for one suite's run until `release` or the end of the process (PostgreSQL drops
 * a session's advisory lock with its connection). Two runs of one suite on one database would empty each
 * other's tables and drop each other's databases beside it in the middle of their tests; the second is
 * refused at once instead. Different suites make databases of their own beside it and may run together.
 */
export async function claimTestDatabase(databaseUrl: string, suite: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  // A cluster restarted under a long run ends the claim, not the run.
  client.on('error', () => {});
  await client.connect();
  const { rows } = await client.query<{ claimed: boolean }>('select pg_try_advisory_lock(hashtext($1)) as claimed', [
    `parcel portal test suite: ${suite}`,
  ]);
  if (rows[0]?.claimed !== true) {
    await client.end().catch(() => {});
    throw new TestDatabaseInUseError(
      `PostgreSQL: another run of the ${suite} tests is using ${describeDatabaseUrl(databaseUrl)} and the ` +
        'databases beside it. Wait for it to end, or give this run a DATABASE_URL of its own',
    );
  }
  // Held for as long as the process runs, but not what keeps it running: a runner that ends without
  // process.exit() would otherwise wait on this connection for ever.
  (client as unknown as { connection: { stream: Socket } }).connection.stream.unref();
  return { release: () => client.end().catch(() => {}) };
}

/**
 * For a suite's runner, before anything starts: the problem, if any, on one line and exit 1. With `suite`,
 * also holds the database for this process's run of it (`claimTestDatabase`).
 */
export async function requireTestDatabase(databaseUrl: string, suite?: string): Promise<void> {
  let problem = await checkTestDatabase(databaseUrl);
  if (!problem && suite) {
    problem = await claimTestDatabase(databaseUrl, suite).then(
      () => undefined,
      (error: Error) => error.message,
    );
  }
  if (!problem) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
