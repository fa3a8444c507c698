import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { listenOnPostgres, type ChannelListener, type ChannelSubscriber } from './notifications.ts';
import { lockDataDir } from './pglite-lock.ts';
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
 */
async function migrateUnderLock(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir?: string /* in memory when absent */; loadDataDir?: Blob };

/** Opens the database and brings its schema up to date; one set of migrations serves both engines. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    const db = drizzlePg(pool, { schema });
    await migrateUnderLock(pool);
    const listeners = new Set<ChannelListener>();
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      ping: async () => void (await pool.query('select 1')),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      listen: async (channel, subscriber) => {
        const listener = listenOnPostgres(target.url, channel, subscriber);
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
  await migratePglite(db, { migrationsFolder });
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

export function databaseTargetFor(config: { databaseUrl?: string | undefined; dataDir: string }): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: `${config.dataDir}/db` };
}
