import { createBoundedCache } from '../lib/bounded-cache.ts';
import type { UserRow } from './repository.ts';

/** Announced by a trigger on the users table (migration 0004) on commit; the payload is the e-mail, '' all. */
export const ALLOWLIST_CHANNEL = 'allowlist_changed';

/**
 * The allowlist row of each recent caller (or its absence), so a signed-in request needs no database round
 * trip. Correct only while change notices arrive: when the listening connection is down the cache steps
 * aside and every lookup reads the database, and when it is back everything remembered is dropped, since
 * notices sent in between are lost. A lookup that began before a notice is not remembered after it.
 */
export function createAllowlistCache(load: (email: string) => Promise<UserRow | undefined>) {
  const rows = createBoundedCache<{ row: UserRow | undefined }>({ maxEntries: 20_000 });
  let live = false;
  let generation = 0;

  function forget(email: string) {
    generation++;
    if (email) rows.delete(email);
    else rows.deleteWhere(() => true);
  }

  return {
    async find(email: string): Promise<UserRow | undefined> {
      if (!live) return load(email);
      const hit = rows.get(email);
      if (hit) return hit.row;
      const seen = generation;
      const row = await load(email);
      if (live && seen === generation) rows.set(email, { row });
      return row;
    },
    onNotify: forget,
    onLive(isLive: boolean) {
      live = isLive;
      forget('');
    },
  };
}

export type AllowlistCache = ReturnType<typeof createAllowlistCache>;
