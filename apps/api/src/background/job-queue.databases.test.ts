import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';
import { createAccountCleanupsRepository } from '../users/account-cleanups.ts';
import { createArrivalNoticesRepository } from '../notifications/arrival-notices.ts';

/** A value the database computes, by its own clock. */
const scalar = async (database: DatabaseHandle, query: ReturnType<typeof sql>) => {
  const result = await database.db.execute(query);
  return Object.values((result as { rows: Record<string, unknown>[] }).rows[0]!)[0];
};

describe('the background job queue', () => {
  let database: DatabaseHandle;
  before(async () => {
    // The pass's database: PostgreSQL when the run gives one, else PGlite.
    const url = process.env.DATABASE_URL;
    database = await openDatabase(url ? { kind: 'postgres', url } : await testPgliteTarget());
  });
  after(() => database.close());
  beforeEach(async () => {
    await database.db.execute(sql`delete from account_cleanups`);
    await database.db.execute(sql`delete from invoice_arrival_notices`);
    await database.db.execute(sql`delete from users`);
  });

  const addCleanups = (count: number, due = sql`now()`) =>
    database.db.execute(sql`insert into account_cleanups (email, requested_by, next_attempt_at)
      select 'person' || n || '@example.com', 'admin@example.com', ${due} from generate_series(1, ${count}) as n`);

  it('never gives one job to two workers taking at once', async () => {
    await addCleanups(12);
    // Two instances' workers, each taking one job at a time until none is left.
    const workers = [createAccountCleanupsRepository(database.db), createAccountCleanupsRepository(database.db)];
    const takenBy = await Promise.all(
      workers.map(async (queue) => {
        const ids: number[] = [];
        for (;;) {
          const [job] = await queue.takeDue(1);
          if (!job) return ids;
          ids.push(job.id);
        }
      }),
    );
    const all = takenBy.flat();
    assert.equal(all.length, 12, 'every job taken once');
    assert.equal(new Set(all).size, 12, 'no job taken twice');
    const attempts = await scalar(database, sql`select array_agg(distinct attempts) from account_cleanups`);
    assert.deepEqual(attempts, [1], 'each attempt counted once');
  });

  it('takes a job again once its lease ran out, and not before', async () => {
    const first = createAccountCleanupsRepository(database.db);
    const second = createAccountCleanupsRepository(database.db);
    await addCleanups(1);
    const [job] = await first.takeDue(1);
    assert.equal(job?.attempts, 1);
    assert.deepEqual(await second.takeAny(1), [], 'held by the first');
    // The first instance died with it: the lease runs out.
    await database.db.execute(sql`update account_cleanups set leased_until = now() - interval '1 second'`);
    const [again] = await second.takeDue(1);
    assert.equal(again?.id, job.id, 'taken again');
    assert.equal(again?.attempts, 2, 'as a second attempt');
  });

  it('backs a failed job off by the database clock, and keeps its error', async () => {
    const queue = createAccountCleanupsRepository(database.db);
    await addCleanups(1);
    const [job] = await queue.takeDue(1);
    await queue.retryLater(job!.id, { error: 'the provider is away '.repeat(50), delayMs: 60_000 });
    assert.deepEqual(await queue.takeDue(1), [], 'not due during its back-off');
    const waitSeconds = Number(
      await scalar(database, sql`select extract(epoch from next_attempt_at - now()) from account_cleanups`),
    );
    assert.ok(waitSeconds > 50 && waitSeconds <= 60, `due in ${waitSeconds} s`);
    assert.equal(String(await scalar(database, sql`select last_error from account_cleanups`)).length, 500);
    await database.db.execute(sql`update account_cleanups set next_attempt_at = now() - interval '1 second'`);
    assert.equal((await queue.takeDue(1))[0]?.attempts, 2, 'due again once its back-off passed');
  });

  it('measures depth and age by the database clock, counting only what is a job (mail once its invoice came)', async () => {
    const cleanups = createAccountCleanupsRepository(database.db);
    assert.deepEqual(await cleanups.stats(), { pending: 0, oldestAgeSeconds: 0 });
    await database.db.execute(sql`insert into account_cleanups (email, requested_by, requested_at)
      values ('a@example.com', 'admin', now() - interval '2 minutes'), ('b@example.com', 'admin', now())`);
    const stats = await cleanups.stats();
    assert.equal(stats.pending, 2);
    assert.ok(stats.oldestAgeSeconds >= 120 && stats.oldestAgeSeconds < 180, `${stats.oldestAgeSeconds}`);

    const notices = createArrivalNoticesRepository(database.db);
    await database.db.execute(sql`insert into users (email) values ('jane@example.com')`);
    await notices.request({ userEmail: 'jane@example.com', parcelCode: 'P1', link: 'https://portal.example/1' });
    await notices.request({ userEmail: 'jane@example.com', parcelCode: 'P2', link: 'https://portal.example/2' });
    assert.deepEqual(await notices.stats(), { pending: 0, oldestAgeSeconds: 0 }, 'waiting for invoices: no jobs');
    assert.deepEqual(await notices.takeAny(5), [], 'nothing to take either');
    await database.db.execute(
      sql`update invoice_arrival_notices set arrived_at = now() - interval '1 minute', next_attempt_at = now() where parcel_code = 'P1'`,
    );
    const mail = await notices.stats();
    assert.equal(mail.pending, 1);
    assert.ok(mail.oldestAgeSeconds >= 60 && mail.oldestAgeSeconds < 120, `${mail.oldestAgeSeconds}`);
    const [job] = await notices.takeDue(5);
    assert.equal(job?.parcelCode, 'P1');
  });
});
