import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { createAllowlistCache } from './allowlist-cache.ts';
import { createUsersRepository, type UserRow } from './repository.ts';

const row = (email: string) => ({ email, admin: false }) as UserRow;

describe('createAllowlistCache', () => {
  function counting() {
    const loads: string[] = [];
    const cache = createAllowlistCache(async (email) => {
      loads.push(email);
      return email.startsWith('in') ? row(email) : undefined;
    });
    return { cache, loads };
  }

  it('reads each e-mail once while notices arrive, and again after a notice for it', async () => {
    const { cache, loads } = counting();
    cache.onLive(true);
    assert.equal((await cache.find('in@example.com'))?.email, 'in@example.com');
    assert.equal(await cache.find('out@example.com'), undefined);
    await cache.find('in@example.com');
    await cache.find('out@example.com');
    assert.deepEqual(loads, ['in@example.com', 'out@example.com']);
    cache.onNotify('in@example.com');
    await cache.find('in@example.com');
    await cache.find('out@example.com');
    assert.deepEqual(loads, ['in@example.com', 'out@example.com', 'in@example.com']);
    cache.onNotify('');
    await cache.find('out@example.com');
    assert.equal(loads.length, 4);
  });

  it('answers a remembered row, or its absence, without a promise; reads through one while notices are not proven', async () => {
    const { cache } = counting();
    cache.onLive(true);
    await cache.find('in@example.com');
    await cache.find('out@example.com');
    assert.equal((cache.find('in@example.com') as UserRow).email, 'in@example.com');
    assert.equal(cache.find('out@example.com'), undefined);
    cache.onLive(false);
    assert.ok(cache.find('in@example.com') instanceof Promise, 'stepped aside: the database is read');
  });

  it('counts each time it steps aside, and says how long ago its notices last proved themselves', async () => {
    let now = 1_000_000;
    let lapses = 0;
    const cache = createAllowlistCache(async () => undefined, { now: () => now, onStepAside: () => (lapses += 1) });
    now += 4_000;
    assert.equal(cache.heartbeatAgeSeconds(), 4, 'never proven: since the start');
    cache.onLive(true);
    assert.equal(cache.heartbeatAgeSeconds(), 0, 'live without heartbeats (an in-process database): proven throughout');
    now += 2_000;
    cache.onHeartbeat();
    now += 1_500;
    assert.equal(cache.heartbeatAgeSeconds(), 1.5);
    cache.onLive(false);
    cache.onLive(false);
    now += 10_000;
    assert.equal(cache.heartbeatAgeSeconds(), 11.5, 'the silence since the last heartbeat');
    assert.equal(lapses, 1, 'one lapse, however often it is told');
    cache.onLive(true);
    cache.onLive(false);
    assert.equal(lapses, 2);
  });

  it('reads the database every time while notices may be lost, and forgets everything when they are back', async () => {
    const { cache, loads } = counting();
    await cache.find('in@example.com');
    await cache.find('in@example.com');
    assert.equal(loads.length, 2, 'not live yet');
    cache.onLive(true);
    await cache.find('in@example.com');
    cache.onLive(false);
    await cache.find('in@example.com');
    await cache.find('in@example.com');
    assert.equal(loads.length, 5);
    cache.onLive(true);
    await cache.find('in@example.com');
    assert.equal(loads.length, 6);
  });

  it('believes a remembered row for 5 s at most, even while notices arrive', async () => {
    let clock = 1_000_000;
    const loads: string[] = [];
    const cache = createAllowlistCache(
      async (email) => {
        loads.push(email);
        return row(email);
      },
      { now: () => clock },
    );
    cache.onLive(true);
    await cache.find('in@example.com');
    clock += 4_999;
    await cache.find('in@example.com');
    assert.equal(loads.length, 1, 'still fresh');
    clock += 2;
    await cache.find('in@example.com');
    assert.equal(loads.length, 2, 'read again once 5 s old');
  });

  it('does not remember a lookup that a notice overtook', async () => {
    let release: (value: UserRow) => void = () => {};
    let loads = 0;
    const cache = createAllowlistCache(() => {
      loads++;
      return new Promise<UserRow>((resolve) => (release = resolve));
    });
    cache.onLive(true);
    const pending = cache.find('in@example.com');
    cache.onNotify('in@example.com');
    release(row('in@example.com'));
    await pending;
    const again = cache.find('in@example.com');
    release(row('in@example.com'));
    await again;
    assert.equal(loads, 2);
  });
  it('reads an address once for the lookups made while it is read, but afresh for one made after a notice', async () => {
    const releases: ((value: UserRow) => void)[] = [];
    const cache = createAllowlistCache(() => new Promise<UserRow>((resolve) => releases.push(resolve)));
    cache.onLive(true);
    const together = [cache.find('in@example.com'), cache.find('in@example.com'), cache.find('in@example.com')];
    assert.equal(releases.length, 1, 'one read for three lookups');
    cache.onNotify('in@example.com');
    const afterNotice = cache.find('in@example.com');
    assert.equal(releases.length, 2, 'the lookup after the notice does not wait for the read begun before it');
    releases[0]!(row('in@example.com'));
    releases[1]!({ ...row('in@example.com'), admin: true });
    for (const found of await Promise.all(together)) assert.equal(found?.admin, false);
    assert.equal((await afterNotice)?.admin, true);
    cache.onLive(false);
    void cache.find('in@example.com');
    void cache.find('in@example.com');
    assert.equal(releases.length, 4, 'while notices may be lost, every lookup reads the database');
    releases[2]!(row('in@example.com'));
    releases[3]!(row('in@example.com'));
  });
});

describe('the allowlist cache in the app', () => {
  const t = useTestApp();
  const invoiceAs = (idToken: string) =>
    t.app.inject({ url: '/api/invoice?parcelCode=NONE', headers: t.bearer(idToken) });

  /** Polls until the caller is refused; returns how long that took. */
  async function msUntilRefused(idToken: string, limitMs: number) {
    const started = performance.now();
    while (performance.now() - started < limitMs) {
      if ((await invoiceAs(idToken)).statusCode === 401) return performance.now() - started;
      await sleep(10);
    }
    assert.fail(`still let in after ${limitMs} ms`);
  }

  it('sees a removal made by another process within 1 s (at once on the embedded database)', async () => {
    const user = await t.createAccount('user@example.com');
    assert.equal((await invoiceAs(user.idToken)).statusCode, 404, 'allowed in, no such invoice');
    // Not through the app: as another instance or the CLI would, heard only through the trigger's notice.
    await createUsersRepository(t.database.db).remove('user@example.com');
    // The embedded database notifies in this process before the removal's query returns: no delay at all.
    if (t.database.kind === 'pglite') assert.equal((await invoiceAs(user.idToken)).statusCode, 401);
    await msUntilRefused(user.idToken, 1000);
  });

  it('lets a person in as soon as another process adds them', async () => {
    const user = await t.createAccount('late@example.com', { allowlisted: false });
    assert.equal((await invoiceAs(user.idToken)).statusCode, 401);
    await createUsersRepository(t.database.db).insert({ email: 'late@example.com', firebaseUid: user.uid });
    const started = performance.now();
    while ((await invoiceAs(user.idToken)).statusCode !== 404) {
      assert.ok(performance.now() - started < 1000, 'still refused after 1 s');
      await sleep(10);
    }
  });

  // Only PostgreSQL has a listening connection to cut: this case belongs to the suite's PostgreSQL pass.
  const onPostgres = Boolean(process.env.DATABASE_URL);
  if (onPostgres)
    it('keeps refusing removed people when its listening connection is cut', async () => {
      const user = await t.createAccount('user@example.com');
      assert.equal((await invoiceAs(user.idToken)).statusCode, 404);
      await t.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()
            and (query ilike 'LISTEN%' or query ilike 'select pg_notify(%')`,
      );
      await createUsersRepository(t.database.db).remove('user@example.com');
      await msUntilRefused(user.idToken, 1000);
      // Back on the list: the listener has reconnected (or the cache stands aside) and lets them in again.
      await createUsersRepository(t.database.db).insert({ email: 'user@example.com', firebaseUid: user.uid });
      const started = performance.now();
      while ((await invoiceAs(user.idToken)).statusCode !== 404) {
        assert.ok(performance.now() - started < 1000, 'still refused after 1 s');
        await sleep(10);
      }
      await createUsersRepository(t.database.db).remove('user@example.com');
      await msUntilRefused(user.idToken, 1000);
    });
});
