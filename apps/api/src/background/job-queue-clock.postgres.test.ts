import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it, mock } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { testDatabaseUrl } from '@portal/dev-stack';
import { createArrivalNoticesRepository } from '../notifications/arrival-notices.ts';
import { createAccountCleanupsRepository } from '../users/account-cleanups.ts';

/**
 * PostgreSQL only: embedded PGlite runs in this process and reads this process's clock, so there is no second
 * clock to disagree with (and only one process may open it).
 */
describe('the background job queue on a server of its own', () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await openDatabase({ kind: 'postgres', url: process.env.DATABASE_URL || testDatabaseUrl() });
  });
  after(() => database.close());
  beforeEach(async () => {
    await database.db.execute(sql`delete from account_cleanups`);
    await database.db.execute(sql`delete from invoice_arrival_notices`);
  });
  const addCleanups = (count: number, due = sql`now()`) =>
    database.db.execute(sql`insert into account_cleanups (email, requested_by, next_attempt_at)
      select 'person' || n || '@example.com', 'admin@example.com', ${due} from generate_series(1, ${count}) as n`);
  const scalar = async (query: ReturnType<typeof sql>) =>
    Object.values(((await database.db.execute(query)) as { rows: Record<string, unknown>[] }).rows[0]!)[0];

  it('leases by the database clock, whatever the clock of the process says', async () => {
    const queue = createAccountCleanupsRepository(database.db);
    // Due in ten minutes by the database's clock.
    await addCleanups(1, sql`now() + interval '10 minutes'`);
    // This process's clock an hour ahead (a skewed instance): the job is still not due.
    mock.timers.enable({ apis: ['Date'], now: Date.now() + 60 * 60_000 });
    try {
      assert.deepEqual(await queue.takeDue(1), [], 'not due by the database clock');
      const [job] = await queue.takeAny(1);
      assert.ok(job);
      // The lease runs a minute from the database's now, not from the process's.
      const leaseSeconds = Number(
        await scalar(sql`select extract(epoch from leased_until - now()) from account_cleanups`),
      );
      assert.ok(leaseSeconds > 50 && leaseSeconds <= 60, `lease of ${leaseSeconds} s`);
    } finally {
      mock.timers.reset();
    }
  });

  it('sends no mail twice from an instance whose clock runs ahead', async () => {
    const notices = createArrivalNoticesRepository(database.db);
    await database.db.execute(sql`insert into users (email) values ('jane@example.com') on conflict do nothing`);
    // A mail job another instance holds for half a minute more, by the database's clock.
    await database.db.execute(sql`insert into invoice_arrival_notices
      (user_email, parcel_code, link, expires_at, arrived_at, next_attempt_at, leased_until, attempts)
      values ('jane@example.com', 'P1', 'https://portal.example/1', now() + interval '1 day', now(), now(),
              now() + interval '30 seconds', 1)`);
    // This instance's clock five minutes ahead: by its own clock the lease ran out long ago.
    mock.timers.enable({ apis: ['Date'], now: Date.now() + 5 * 60_000 });
    try {
      assert.deepEqual(await notices.takeDue(1), [], 'still held by the other instance');
    } finally {
      mock.timers.reset();
    }
  });
});
