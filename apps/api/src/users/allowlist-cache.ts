import { createBoundedCache } from '../lib/bounded-cache.ts';
import type { UserRow } from './repository.ts';

/** Announced by a trigger on the users table (migration 0004) on commit; the payload is the e-mail, '' all. */
export const ALLOWLIST_CHANNEL = 'allowlist_changed';

/**
 * How long a remembered row is believed, however healthy the change notices look: the bound on how late a
 * removal or a lost role is seen should every other safeguard fail (a notice lost in a way nothing noticed).
 */
export const ALLOWLIST_TTL_MS = 5_000;

/**
 * The allowlist row of each recent caller (or its absence), so a signed-in request needs no database round
 * trip. Correct only while change notices arrive: when the listening connection is down, or has not proved
 * itself lately (db/notifications.ts: its heartbeat), the cache steps aside and every lookup reads the
 * database, and when it is back everything remembered is dropped, since notices sent in between may be
 * lost. A lookup that began before a notice is not remembered after it. Fails closed: no row is believed for
 * longer than `ttlMs` (5 s) even while everything looks healthy.
 */
export function createAllowlistCache(
  load: (email: string) => Promise<UserRow | undefined>,
  options: {
    ttlMs?: number;
    now?: () => number;
    /** Called each time the cache steps aside (its notices stopped proving themselves): the metrics count it. */
    onStepAside?: () => void;
  } = {},
) {
  const now = options.now ?? Date.now;
  const rows = createBoundedCache<{ row: UserRow | undefined }>({
    maxEntries: 20_000,
    ttlMs: options.ttlMs ?? ALLOWLIST_TTL_MS,
    ...(options.now ? { now: options.now } : {}),
  });
  let live = false;
  let generation = 0;
  /** When the channel last proved itself: a heartbeat heard back, or going live; and whether heartbeats come at all. */
  let provenAtMs = now();
  let heartbeats = false;
  // One read of an address at a time while live: a row that ran out under load was read again by every
  // request of that moment. Joined only within the same generation: a notice makes the next request read afresh.
  const reading = new Map<string, { generation: number; row: Promise<UserRow | undefined> }>();

  function forget(email: string) {
    generation++;
    if (email) rows.delete(email);
    else rows.deleteWhere(() => true);
  }

  return {
    /** A remembered row is answered without a promise (callers `await` it). */
    find(email: string): UserRow | undefined | Promise<UserRow | undefined> {
      if (!live) return load(email);
      const hit = rows.get(email);
      if (hit) return hit.row;
      const underWay = reading.get(email);
      if (underWay?.generation === generation) return underWay.row;
      const seen = generation;
      const row = load(email).then((found) => {
        if (live && seen === generation) rows.set(email, { row: found });
        return found;
      });
      reading.set(email, { generation: seen, row });
      const done = () => {
        if (reading.get(email)?.row === row) reading.delete(email);
      };
      row.then(done, done);
      return row;
    },
    onNotify: forget,
    /** Whether remembered rows are used at all (change notices are known to arrive). */
    isLive: () => live,
    onLive(isLive: boolean) {
      if (live && !isLive) options.onStepAside?.();
      if (isLive) provenAtMs = now();
      live = isLive;
      forget('');
    },
    onHeartbeat() {
      heartbeats = true;
      provenAtMs = now();
    },
    /**
     * Seconds since the notices last proved themselves. An in-process database (PGlite) hears its own
     * changes without heartbeats: while live, it is proven all the time.
     */
    heartbeatAgeSeconds: () => (live && !heartbeats ? 0 : (now() - provenAtMs) / 1000),
  };
}

export type AllowlistCache = ReturnType<typeof createAllowlistCache>;
