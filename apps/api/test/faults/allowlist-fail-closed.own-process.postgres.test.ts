/**
 * How long a demoted administrator stays an administrator on an instance that did not make the change, when
 * everything works, when its LISTEN connection dies without a word (a firewall's idle timeout: the socket
 * stays open and nothing arrives), and when the change sends no notice at all. The role is taken away
 * directly in the database, as another instance or an operator would, so this instance hears of it only
 * through the change notice, the heartbeat or the cache's expiry.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { DEFAULT_HEARTBEAT } from '../../src/db/notifications.ts';
import { ALLOWLIST_TTL_MS } from '../../src/users/allowlist-cache.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import { PRODUCTION_QUERY_TIMEOUT, useTestApp } from '../helpers/test-app.ts';

// Why a process of its own (.own-process): it times how long refusals take, which a neighbour's load would blur.

const realUrl = new URL(process.env.DATABASE_URL ?? '');
const proxy = await startTcpProxy({ host: realUrl.hostname, port: Number(realUrl.port || 5432) });
const proxiedUrl = new URL(realUrl);
proxiedUrl.host = `127.0.0.1:${proxy.port}`;

/** A silent cut is noticed at the next heartbeat's deadline: its interval plus its answer time. */
const HEARTBEAT_BOUND_MS = DEFAULT_HEARTBEAT.intervalMs + DEFAULT_HEARTBEAT.answerWithinMs;
/** Requests, scheduling and a machine shared with other work. */
const SLACK_MS = 1500;

describe('a demoted administrator on another instance', () => {
  const t = useTestApp({ env: { DATABASE_URL: proxiedUrl.href, ...PRODUCTION_QUERY_TIMEOUT } });
  // Not through the proxy: the other instance's (or the operator's) own connection.
  const other = new pg.Client({ connectionString: realUrl.href });
  before(() => other.connect());
  after(async () => {
    await other.end();
    await proxy.close();
  });

  async function adminWithCachedRole() {
    await t.createAccount('keeper@example.com', { admin: true });
    const { idToken } = await t.createAccount('boss@example.com', { admin: true });
    const listUsers = () => t.app.inject({ url: '/api/users', headers: t.bearer(idToken) });
    // Once the listener has proved itself the cache is in use (after a cut, that takes a reconnection).
    const started = performance.now();
    while (!t.app.domain.allowlist.isLive()) {
      assert.ok(performance.now() - started < 20_000, 'the allowlist listener never became live');
      await sleep(50);
    }
    // The notices of the rows just written arrive after a moment and make the cache forget them: let them
    // pass, then have the row remembered.
    await sleep(300);
    assert.equal((await listUsers()).statusCode, 200, 'an administrator, and the row is remembered');
    return listUsers;
  }

  async function msUntilForbidden(listUsers: () => Promise<{ statusCode: number }>, limitMs: number) {
    const started = performance.now();
    for (;;) {
      const status = (await listUsers()).statusCode;
      const elapsed = performance.now() - started;
      if (status === 403) return elapsed;
      assert.equal(status, 200);
      if (elapsed > limitMs) assert.fail(`still an administrator after ${elapsed.toFixed(0)} ms`);
      await sleep(20);
    }
  }

  it('loses the role within 1 s while the change notices arrive', async (test) => {
    const listUsers = await adminWithCachedRole();
    await other.query(`update users set admin = false where email = 'boss@example.com'`);
    const ms = await msUntilForbidden(listUsers, 1000);
    test.diagnostic(`demoted admin refused after ${ms.toFixed(0)} ms (LISTEN healthy)`);
  });

  it(`loses the role within ${HEARTBEAT_BOUND_MS} ms when the LISTEN connection dies silently`, async (test) => {
    const listUsers = await adminWithCachedRole();
    assert.equal(proxy.stallConnectionsThatSent('LISTEN'), 1, 'the listening connection goes silent, open');
    // Its notice is lost with the connection: only the heartbeat can tell the cache to stop believing it.
    await other.query(`update users set admin = false where email = 'boss@example.com'`);
    const ms = await msUntilForbidden(listUsers, HEARTBEAT_BOUND_MS + SLACK_MS);
    test.diagnostic(`demoted admin refused after ${ms.toFixed(0)} ms (LISTEN silently cut; heartbeat)`);
  });

  it(`loses the role within ${ALLOWLIST_TTL_MS} ms when the change sends no notice at all`, async (test) => {
    const listUsers = await adminWithCachedRole();
    // A change that bypasses the trigger (a restore, a replica, a hand edit with triggers off): the LISTEN
    // connection is healthy and hears nothing. Only the cache's expiry bounds it.
    await other.query(
      `begin; alter table users disable trigger users_allowlist_changed;
       update users set admin = false where email = 'boss@example.com';
       alter table users enable trigger users_allowlist_changed; commit;`,
    );
    const ms = await msUntilForbidden(listUsers, ALLOWLIST_TTL_MS + SLACK_MS);
    test.diagnostic(`demoted admin refused after ${ms.toFixed(0)} ms (no notice; cache expiry)`);
  });
});
