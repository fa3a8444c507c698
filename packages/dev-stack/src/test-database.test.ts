import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { it } from 'node:test';
import { claimTestDatabase, requireTestDatabase, TestDatabaseInUseError, testDatabaseUrl } from './test-database.ts';

const databaseUrl = testDatabaseUrl();
await requireTestDatabase(databaseUrl);

it('lets one run of a suite hold the test database at a time, and other suites beside it', async () => {
  const suite = `claim-test-${process.pid}`;
  const first = await claimTestDatabase(databaseUrl, suite);
  await assert.rejects(claimTestDatabase(databaseUrl, suite), (error: Error) => {
    assert.ok(error instanceof TestDatabaseInUseError);
    assert.match(error.message, new RegExp(`another run of the ${suite} tests is using .+ Wait for it to end`));
    return true;
  });
  const other = await claimTestDatabase(databaseUrl, `${suite}-other`);
  await first.release();
  const next = await claimTestDatabase(databaseUrl, suite);
  await Promise.all([next.release(), other.release()]);
});

it('keeps no process running that ends without process.exit while it holds the claim', async () => {
  const script = `
    import { requireTestDatabase } from ${JSON.stringify(new URL('./test-database.ts', import.meta.url).href)};
    await requireTestDatabase(${JSON.stringify(databaseUrl)}, 'claim-exit-${process.pid}');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
  const ended = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const timer = setTimeout(() => child.kill(), 20_000);
  const code = await ended;
  clearTimeout(timer);
  assert.equal(code, 0, 'the process ended by itself');
});
