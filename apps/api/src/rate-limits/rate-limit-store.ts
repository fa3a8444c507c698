import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rateLimitWindows } from '../db/schema.ts';

export interface WindowCount {
  /** Hits in the current window, this one included. */
  hits: number;
  /** When the current window ends (ms since the epoch). */
  resetAtMs: number;
}

/**
 * Fixed windows kept in the database, so every API instance spends one budget. One atomic upsert per hit:
 * a window that has ended starts again at one. Same SQL on PostgreSQL and PGlite.
 */
export function createRateLimitStore(db: Database, options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;

  /** Adds each amount to its key's current window in one statement; keys must be distinct. */
  async function hitMany(
    hits: { key: string; amount: number }[],
    windowMs: number,
  ): Promise<(WindowCount & { key: string })[]> {
    if (hits.length === 0) return [];
    const windowStart = new Date(Math.floor(now() / windowMs) * windowMs);
    const expiresAt = new Date(windowStart.getTime() + windowMs);
    const rows = await db
      .insert(rateLimitWindows)
      .values(hits.map(({ key, amount }) => ({ key, windowStart, hits: amount, expiresAt })))
      .onConflictDoUpdate({
        target: rateLimitWindows.key,
        set: {
          hits: sql`case when ${rateLimitWindows.windowStart} = excluded.window_start
            then ${rateLimitWindows.hits} + excluded.hits else excluded.hits end`,
          windowStart: sql`excluded.window_start`,
          expiresAt: sql`excluded.expires_at`,
        },
      })
      .returning({ key: rateLimitWindows.key, hits: rateLimitWindows.hits });
    return rows.map((row) => ({ ...row, resetAtMs: expiresAt.getTime() }));
  }

  return {
    hitMany,

    async hit(key: string, windowMs: number, amount = 1): Promise<WindowCount> {
      const [count] = await hitMany([{ key, amount }], windowMs);
      return count ?? { hits: amount, resetAtMs: Math.floor(now() / windowMs + 1) * windowMs };
    },

    /** The current window's hits without counting one (0 when the window has ended). */
    async peek(key: string, windowMs: number): Promise<number> {
      const windowStart = new Date(Math.floor(now() / windowMs) * windowMs);
      const [row] = await db
        .select({ hits: rateLimitWindows.hits })
        .from(rateLimitWindows)
        .where(and(eq(rateLimitWindows.key, key), eq(rateLimitWindows.windowStart, windowStart)));
      return row?.hits ?? 0;
    },

    /** Deletes ended windows; any instance may run it, any number of times. */
    async sweep(): Promise<number> {
      const removed = await db
        .delete(rateLimitWindows)
        .where(lt(rateLimitWindows.expiresAt, new Date(now())))
        .returning({ key: rateLimitWindows.key });
      return removed.length;
    },
  };
}

export type RateLimitStore = ReturnType<typeof createRateLimitStore>;
