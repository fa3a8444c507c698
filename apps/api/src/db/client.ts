import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import { DEFAULT_HEARTBEAT, listenOnPostgres, type ChannelListener, type ChannelSubscriber } from './notifications.ts';
import { lockDataDir } from './pglite-lock.ts';
import { openPool, type DatabaseTimeouts } from './pool.ts';
import { databaseClient } from './primary-client.ts';
import { schema } from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  /** Connections of the pool (PostgreSQL); PGlite is one in-process connection. */
  poolUse(): { total: number; idle: number; waiting: number };
  /** Hears NOTIFYs on `channel` sent by any process on this database (on PGlite: this process). */
  listen(channel: string, subscriber: ChannelSubscriber): Promise<ChannelListener>;
  close(): Promise<void>;
}

/** Any fixed 64-bit number, the same in every instance: whoever holds it migrates, the others wait. */
const MIGRATION_LOCK_KEY = 7_240_611_013n;

/**
 * Several instances starting at once would race through the same migrations; the first to take the
 * advisory lock applies them, the next find them applied. The lock belongs to the session, so it is
 * taken and released on one connection, and released by PostgreSQL if this process dies holding it.
 * Migrations may build indexes for longer than any request may wait, so that connection is a client of
 * its own, without the pool's statement timeouts.
 */
async function migrateUnderLock(url: string, connectMs: number | undefined, folder = migrationsFolder) {
  const client = databaseClient(url, { ...(connectMs && { connectionTimeoutMillis: connectMs }) });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: folder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** How far a database's schema is migrated, beside how far this release's migrations go. */
export interface SchemaLevel {
  applied: number;
  /** The journal `when` of the last migration applied (drizzle applies only migrations above it). */
  lastWhen: number;
  known: number;
  knownLastWhen: number;
}

export class SchemaBehindError extends Error {
  constructor(level: SchemaLevel) {
    super(
      `The database schema is behind this release (${level.applied} of its ${level.known} migrations applied) and MIGRATE_ON_START is false: run \`npm run portal -- migrate\` (in production \`node apps/api/dist/cli.js migrate\`) first.`,
    );
  }
}

/** This release's migrations, from the journal drizzle reads them by. */
export async function readMigrationJournal(folder = migrationsFolder): Promise<{ tag: string; when: number }[]> {
  const journal = JSON.parse(await readFile(`${folder}/meta/_journal.json`, 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

export async function schemaLevel(db: Pick<Database, 'execute'>): Promise<SchemaLevel> {
  const journal = await readMigrationJournal();
  const known = { known: journal.length, knownLastWhen: Math.max(0, ...journal.map((entry) => entry.when)) };
  const [table] = (
    (await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`)) as unknown as {
      rows: { present: boolean }[];
    }
  ).rows;
  if (!table?.present) return { applied: 0, lastWhen: 0, ...known };
  const [row] = (
    (await db.execute(
      sql`select count(*) as applied, coalesce(max(created_at), 0) as last from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { applied: string | number; last: string | number }[] }
  ).rows;
  return { applied: Number(row?.applied ?? 0), lastWhen: Number(row?.last ?? 0), ...known };
}

/** Refuses a schema this release's code would not find its tables and columns in; a newer one is fine (expand, then contract). */
async function assertSchemaCurrent(db: Pick<Database, 'execute'>) {
  const level = await schemaLevel(db);
  if (level.lastWhen < level.knownLastWhen) throw new SchemaBehindError(level);
}

/**
 * `portal migrate` and start-up: brings the schema up to this release's level. On PostgreSQL under the
 * advisory lock, so a migrate job and starting instances never run the same migration twice.
 */
export async function migrateDatabase(
  target: DatabaseTarget,
  // Tests take a database to a level of their own (an earlier one, or a next one this release does not have).
  folder = migrationsFolder,
): Promise<{ before: SchemaLevel; after: SchemaLevel }> {
  if (target.kind === 'postgres') {
    const connectMs = target.timeouts?.connectMs;
    const client = databaseClient(target.url, { ...(connectMs && { connectionTimeoutMillis: connectMs }) });
    client.on('error', () => {});
    await client.connect();
    const before = await schemaLevel(drizzlePg(client, { schema }) as unknown as Database).finally(() => client.end());
    await migrateUnderLock(target.url, target.timeouts?.connectMs, folder);
    const handle = await openDatabase(target, { migrate: false, allowBehind: true });
    try {
      return { before, after: await schemaLevel(handle.db) };
    } finally {
      await handle.close();
    }
  }
  const handle = await openDatabase(target, { migrate: false, allowBehind: true });
  try {
    const before = await schemaLevel(handle.db);
    await migratePglite(handle.db as never, { migrationsFolder: folder });
    return { before, after: await schemaLevel(handle.db) };
  } finally {
    await handle.close();
  }
}

export interface OpenDatabaseOptions {
  /** Apply pending migrations first (default); when false, refuse a schema behind this release instead. */
  migrate?: boolean;
  /** With migrate false: open even a schema behind this release (only `portal migrate` itself). */
  allowBehind?: boolean;
}

/**
 * Backup, restore and verify read or write whole tables, a statement at a time: at 100,000 invoices one takes
 * seconds, more on a busy server, where a request's query gives up after DATABASE_QUERY_TIMEOUT_MS (3 s).
 */
export const MAINTENANCE_QUERY_TIMEOUT_MS = 15 * 60 * 1000;

/** The configuration a maintenance command opens the database with: the request's limits, but not for a query. */
export function forMaintenance<T extends { databaseTimeouts: DatabaseTimeouts }>(config: T): T {
  const { connectMs, queryMs } = config.databaseTimeouts;
  return { ...config, databaseTimeouts: { connectMs, queryMs: Math.max(queryMs, MAINTENANCE_QUERY_TIMEOUT_MS) } };
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; timeouts?: DatabaseTimeouts /* none when absent (scratch databases) */ }
  | { kind: 'pglite'; dataDir?: string /* in memory when absent */; loadDataDir?: Blob };

/** Opens the database and brings its schema up to date; one set of migrations serves both engines. */
export async function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  const migrate = options.migrate ?? true;
  if (target.kind === 'postgres') {
    if (migrate) await migrateUnderLock(target.url, target.timeouts?.connectMs);
    const pool = openPool(target.url, target.timeouts);
    const db = drizzlePg(pool, { schema });
    if (!migrate && !options.allowBehind) {
      try {
        await assertSchemaCurrent(db as unknown as Database);
      } catch (error) {
        await pool.end();
        throw error;
      }
    }
    const listeners = new Set<ChannelListener>();
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      ping: async () => void (await pool.query('select 1')),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      listen: async (channel, subscriber) => {
        const listener = listenOnPostgres(
          target.url,
          channel,
          subscriber,
          DEFAULT_HEARTBEAT,
          target.timeouts?.connectMs,
        );
        listeners.add(listener);
        return {
          close: async () => {
            listeners.delete(listener);
            await listener.close();
          },
        };
      },
      close: async () => {
        await Promise.all([...listeners].map((listener) => listener.close()));
        await pool.end();
      },
    };
  }
  if (target.dataDir) await mkdir(target.dataDir, { recursive: true });
  const unlock = target.dataDir ? await lockDataDir(target.dataDir) : async () => {};
  // pg_trgm backs the user search index (migration 0001); PostgreSQL ships it, PGlite loads it here.
  const client = await PGlite.create({
    dataDir: target.dataDir,
    loadDataDir: target.loadDataDir,
    extensions: { pg_trgm },
  });
  const db = drizzlePglite(client, { schema });
  try {
    if (migrate) await migratePglite(db, { migrationsFolder });
    else if (!options.allowBehind) await assertSchemaCurrent(db as unknown as Database);
  } catch (error) {
    await client.close();
    await unlock();
    throw error;
  }
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    ping: async () => void (await client.query('select 1')),
    poolUse: () => ({ total: 1, idle: 1, waiting: 0 }),
    // One process owns the embedded database: every change is made here, and heard before its query returns.
    listen: async (channel, subscriber) => {
      const unlisten = await client.listen(channel, (payload) => subscriber.onNotify(payload));
      subscriber.onLive(true);
      // Closing the database ends every subscription with it; an app closed later has nothing left to undo.
      return { close: async () => void (client.closed ? undefined : await unlisten()) };
    },
    close: async () => {
      await client.close();
      await unlock();
    },
  };
}

export function databaseTargetFor(config: {
  databaseUrl?: string | undefined;
  dataDir: string;
  databaseTimeouts: DatabaseTimeouts;
}): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl, timeouts: config.databaseTimeouts }
    : { kind: 'pglite', dataDir: `${config.dataDir}/db` };
}
