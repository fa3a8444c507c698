/**
 * A database failover under load, as operators run PostgreSQL: a primary with a synchronous streaming replica
 * (two clusters of this file's own, in a temporary folder), two compiled API instances behind nginx on a
 * DATABASE_URL naming both servers (target_session_attrs=read-write). The primary is stopped hard, the replica
 * promoted, the old primary rewound and brought back as a replica. Needs PostgreSQL's server programs
 * (initdb, pg_ctl, pg_basebackup, pg_rewind); `npm run bench:failover` prints the same figures.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runFailoverDrill } from '@portal/dev-stack/failover';

describe('a database failover under load', () => {
  it('loses no acknowledged write, answers 503 with Retry-After meanwhile, and the old primary rejoins without diverging', async () => {
    const log: string[] = [];
    const started = performance.now();
    const figures = await runFailoverDrill({
      log: (line) => log.push(`${((performance.now() - started) / 1000).toFixed(1)} s ${line}`),
    }).catch((error: unknown) => {
      process.stdout.write(`${log.slice(-80).join('\n')}\n`);
      throw error;
    });
    process.stdout.write(
      `${log.filter((line) => !line.includes('[api')).join('\n')}\n# failover: ${JSON.stringify(figures)}\n`,
    );
    const failed = figures.lost.length + figures.unexpected.length + figures.diverged.length > 0;
    // What the instances said is what explains a lost write or a refusal.
    if (failed)
      process.stdout.write(
        `${log
          .filter((line) => line.includes('[api'))
          .slice(-150)
          .join('\n')}\n`,
      );
    assert.deepEqual(figures.lost, [], 'acknowledged writes missing on the new primary');
    assert.deepEqual(figures.unexpected, [], 'answers other than success or a 503 with Retry-After');
    assert.equal(figures.writesAcceptedByOldPrimary, 0);
    assert.deepEqual(figures.diverged, [], 'tables that differ between the new primary and the rejoined old one');
    // The drill means something only if writes of every kind were acknowledged (a busy machine takes fewer).
    assert.ok(figures.acknowledged.uploads >= 5, `only ${figures.acknowledged.uploads} uploads acknowledged`);
    assert.ok(figures.acknowledged.removals >= 1, 'no removal acknowledged');
    assert.ok(figures.acknowledged.additions >= 1, 'no addition acknowledged');
    assert.ok(figures.refused > 0, 'no call met the failover: the drill did not test it');
  });
});
