import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { like, sum } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { auditLog, rateLimitWindows } from '../src/db/schema.ts';
import { ANONYMOUS_BUSY_MESSAGE } from '../src/rate-limits/http-guards.ts';
import { fakePdf } from './helpers/fixtures.ts';
import { useTestApp } from './helpers/test-app.ts';

const PER_SECOND = 10;
const CONCURRENCY = 2;
const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';

/** The n-th of many distinct client addresses (10.50.0.1, 10.50.0.2, …): a botnet, each machine calling little. */
const address = (n: number) => `10.50.${(n >> 8) & 255}.${n & 255}`;
let nextClient = 1;
const freshClient = () => address(nextClient++);

const lookup = (email: string, remoteAddress = freshClient()): InjectOptions => ({
  url: `/api/users/${email}`,
  remoteAddress,
});

/**
 * Every call anyone may make without signing in also spends this instance's anonymous budget (rate and
 * concurrency), which a flood from very many addresses, each well within its own allowance, runs out of.
 */
describe('the anonymous budget of an instance', () => {
  const t = useTestApp({
    env: {
      RATE_LIMIT_ANONYMOUS_PER_SECOND: String(PER_SECOND),
      RATE_LIMIT_ANONYMOUS_CONCURRENCY: String(CONCURRENCY),
      RATE_LIMIT_LOOKUPS_PER_MINUTE: '3',
      INGEST_TOKEN,
    },
  });
  /** A full bucket: one second with no anonymous call refills it. */
  const refilled = () => sleep(1100);

  it('refuses a flood from many addresses, each within its allowance, once the rate is spent', async () => {
    await refilled();
    // Every call from another address, about another address: no allowance of either kind is reached.
    const kinds = [
      (n: number): InjectOptions => lookup(`a${n}@example.com`),
      (n: number): InjectOptions => ({ method: 'POST', url: '/api/users', payload: { userId: `b${n}@example.com` } }),
      (n: number): InjectOptions => ({
        method: 'PUT',
        url: `/api/users/c${n}@example.com`,
        payload: { activated: true },
      }),
    ];
    const started = performance.now();
    const statuses: number[] = [];
    let refusal;
    for (let i = 0; i < 60; i++) {
      const request = { ...kinds[i % kinds.length]!(i), remoteAddress: freshClient() };
      const response = await t.app.inject(request);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) refusal ??= response;
    }
    const elapsedMs = performance.now() - started;
    const answered = statuses.filter((status) => status !== 429).length;
    // One second's worth at once, then what the time the calls took refilled.
    assert.ok(answered >= PER_SECOND, `${answered} answered`);
    assert.ok(answered <= PER_SECOND + Math.ceil((elapsedMs / 1000) * PER_SECOND), `${answered} answered`);
    assert.ok(refusal, 'the flood was refused');
    assert.equal(refusal.json().message, ANONYMOUS_BUSY_MESSAGE);
    assert.equal(refusal.json().code, 'rate-limited');
    assert.ok(Number(refusal.headers['retry-after']) >= 1);
  });

  it('refuses calls beyond its concurrency while others are under way, and frees their places after', async () => {
    await refilled();
    // A slow database: the lookups' read waits until released, and they hold their places meanwhile.
    let unlock!: () => void;
    const unlocked = new Promise<void>((resolve) => (unlock = resolve));
    const users = t.domain.users;
    const read = users.findByEmail;
    users.findByEmail = async (email) => {
      await unlocked;
      return read(email);
    };
    let slow: Promise<LightMyRequestResponse>[] = [];
    try {
      slow = [t.app.inject(lookup('first@example.com')), t.app.inject(lookup('second@example.com'))];
      for (let waited = 0; t.domain.rateLimits.anonymousBudget.inFlight() < CONCURRENCY && waited < 5000; waited += 20)
        await sleep(20);
      assert.equal(t.domain.rateLimits.anonymousBudget.inFlight(), CONCURRENCY);
      // The rate has room (2 of 10 spent): it is the two calls under way that refuse this one.
      const refused = await t.app.inject(lookup('other@example.com'));
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().message, ANONYMOUS_BUSY_MESSAGE);
    } finally {
      users.findByEmail = read;
      unlock();
    }
    assert.deepEqual(
      (await Promise.all(slow)).map((response) => response.statusCode),
      [404, 404],
    );
    assert.equal(t.domain.rateLimits.anonymousBudget.inFlight(), 0);
    assert.equal((await t.app.inject(lookup('other@example.com'))).statusCode, 404);
  });

  it('gives a place back while a call about a busy address waits: such calls cannot shut others out', async () => {
    await refilled();
    // Three lookups of one address (its allowance is 3): the next ones about it are answered a second late.
    for (let i = 0; i < 3; i++) assert.equal((await t.app.inject(lookup('victim@example.com'))).statusCode, 404);
    const waiting = [1, 2, 3].map(() => t.app.inject(lookup('victim@example.com')));
    await sleep(200);
    assert.equal(t.domain.rateLimits.anonymousBudget.inFlight(), 0, 'nobody holds a place while waiting');
    assert.equal((await t.app.inject(lookup('bystander@example.com'))).statusCode, 404);
    assert.deepEqual(
      (await Promise.all(waiting)).map((response) => response.statusCode),
      [404, 404, 404],
    );
  });

  it('is not spent by one client over its own allowance: that client alone is refused', async () => {
    await refilled();
    const loud = freshClient();
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await t.app.inject(lookup(`x${i}@example.com`, loud))).statusCode);
    assert.deepEqual(statuses.slice(0, 4), [404, 404, 404, 429]);
    // 3 of the 10 spent: a stranger elsewhere is answered.
    assert.equal((await t.app.inject(lookup('y@example.com'))).statusCode, 404);
  });

  it('never refuses signed-in people while the flood is refused, and refusals write nothing', async () => {
    const person = await t.createAccount('person@example.com');
    const stored = await t.app.inject({
      method: 'PUT',
      url: '/api/invoices/BUDGET-1',
      payload: fakePdf('BUDGET-1'),
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
    });
    assert.equal(stored.statusCode, 201);
    await t.domain.rateLimits.flush();
    await t.database.db.delete(rateLimitWindows);
    await t.database.db.delete(auditLog);
    t.domain.rateLimits.reset();
    await refilled();

    // 400 calls at once from 400 addresses, and the person opening the invoice and looking themself up.
    const flood = Array.from({ length: 400 }, (_unused, i) => t.app.inject(lookup(`stranger-${i}@example.com`)));
    const personal = Array.from({ length: 20 }, (_unused, i) =>
      t.app.inject(
        i % 2 === 0
          ? { url: '/api/invoice?parcelCode=BUDGET-1', headers: t.bearer(person.idToken), remoteAddress: freshClient() }
          : { url: '/api/users/person@example.com', headers: t.bearer(person.idToken), remoteAddress: freshClient() },
      ),
    );
    const floodStatuses = (await Promise.all(flood)).map((response) => response.statusCode);
    const personStatuses = (await Promise.all(personal)).map((response) => response.statusCode);
    assert.deepEqual(personStatuses, Array(20).fill(200));
    const answered = floodStatuses.filter((status) => status === 404).length;
    const refused = floodStatuses.filter((status) => status === 429).length;
    assert.equal(answered + refused, 400);
    assert.ok(answered >= 1 && answered <= PER_SECOND, `${answered} answered`);

    // Only the answered calls were counted (to be sent to the shared windows); the refused ones, nothing.
    await t.domain.rateLimits.flush();
    await t.domain.auditWriter.flush();
    const [counted] = await t.database.db
      .select({ hits: sum(rateLimitWindows.hits) })
      .from(rateLimitWindows)
      .where(like(rateLimitWindows.key, 'anonymous:%'));
    assert.equal(Number(counted?.hits ?? 0), answered);
    const audited = await t.database.db.select().from(auditLog);
    assert.deepEqual(
      audited.filter((row) => row.action.includes('/users/')),
      [],
      'a refused anonymous call leaves no audit entry',
    );
  });
});
