import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  databaseTargetFor,
  forMaintenance,
  MAINTENANCE_QUERY_TIMEOUT_MS,
  openDatabase,
  type DatabaseHandle,
} from './client.ts';
import { sql } from 'drizzle-orm';

const config = {
  databaseUrl: process.env.DATABASE_URL ?? '',
  dataDir: '/nonexistent',
  databaseTimeouts: { connectMs: 2000, queryMs: 200 },
};
const sleepHalfASecond = sql`select pg_sleep(0.5)`;

describe('query time limits on PostgreSQL', () => {
  let serving: DatabaseHandle;
  let maintenance: DatabaseHandle;
  before(async () => {
    serving = await openDatabase(databaseTargetFor(config), { migrate: false, allowBehind: true });
    maintenance = await openDatabase(databaseTargetFor(forMaintenance(config)), { migrate: false, allowBehind: true });
  });
  after(async () => {
    await serving.close();
    await maintenance.close();
  });

  it('gives up on a request query that takes longer than DATABASE_QUERY_TIMEOUT_MS', async () => {
    await assert.rejects(serving.db.execute(sleepHalfASecond), (error: Error) => {
      assert.match(String((error.cause as Error | undefined)?.message), /statement timeout|query read timeout/);
      return true;
    });
  });

  it('lets a maintenance command (backup, restore, verify) wait for a long statement, with the same connect limit', async () => {
    await maintenance.db.execute(sleepHalfASecond);
    const limits = forMaintenance(config).databaseTimeouts;
    assert.deepEqual(limits, { connectMs: 2000, queryMs: MAINTENANCE_QUERY_TIMEOUT_MS });
    const answer = (await maintenance.db.execute(sql`show statement_timeout`)) as unknown as {
      rows: { statement_timeout: string }[];
    };
    const [shown] = answer.rows;
    assert.equal(shown?.statement_timeout, `${MAINTENANCE_QUERY_TIMEOUT_MS / 60_000}min`);
  });
});
