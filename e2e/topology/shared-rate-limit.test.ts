/**
 * The limit on calls made without signing in holds for the whole topology, whichever instance answers:
 * the instances share one budget in PostgreSQL (with counts per process, two instances would let twice the
 * limit through).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findFreePort, startTopology, type Topology } from '@portal/dev-stack';

const databaseUrl = process.env.TOPOLOGY_DATABASE_URL ?? '';
const LIMIT = 6;

describe('the limit on calls without signing in, across two instances behind nginx', () => {
  let topology: Topology;
  let workDir: string;

  before(async () => {
    assert.ok(databaseUrl, 'TOPOLOGY_DATABASE_URL is not set: run these tests with `npm run test:topology`');
    workDir = await mkdtemp(path.join(os.tmpdir(), 'portal-topology-limit-'));
    topology = await startTopology({
      port: await findFreePort(),
      instances: 2,
      databaseUrl,
      workDir,
      env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: String(LIMIT) },
    });
  });

  after(async () => {
    await topology?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it(`lets ${LIMIT} lookups from one address through in a minute, whichever instance answers, then 429`, async () => {
    const statuses: number[] = [];
    // nginx spreads these round-robin over both instances.
    for (let i = 0; i < LIMIT * 2; i++) {
      const response = await fetch(`${topology.url}/api/users/nobody-${i}@example.com`);
      statuses.push(response.status);
    }
    assert.equal(statuses.filter((status) => status !== 429).length, LIMIT, `statuses: ${statuses.join(' ')}`);
    assert.deepEqual(statuses.slice(LIMIT), Array(LIMIT).fill(429));
  });
});
