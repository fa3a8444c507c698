import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAuditWriter } from '../audit/audit-writer.ts';
import type { AuditRepository } from '../audit/repository.ts';
import { withDomain } from '../domain.ts';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { backoffMs, createLoop } from './loops.ts';
import { createBackgroundRegistry } from './registry.ts';

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

describe('the background registry', () => {
  it('starts its tasks in the order they were added, stops them in the reverse order, and measures its queues', async () => {
    const events: string[] = [];
    const errors: string[] = [];
    const registry = createBackgroundRegistry({ log: { error: (_details, message) => errors.push(message) } });
    registry.resource('pool', () => void events.push('close pool'));
    registry.listener('notices', async () => {
      events.push('listen');
      return { close: async () => void events.push('unlisten') };
    });
    registry.writer(
      'writer',
      { flush: async () => void events.push('flush'), close: async () => void events.push('last write') },
      60_000,
    );
    registry.every('sweep', 60_000, async () => void events.push('sweep'), { runAtStart: true });
    registry.queue({
      name: 'jobs',
      queue: { stats: async () => ({ pending: 2, oldestAgeSeconds: 30 }) },
      start: () => void events.push('work'),
      stop: async () => void events.push('stop work'),
      isRunning: () => events.includes('work') && !events.includes('stop work'),
    });
    assert.throws(() => registry.every('sweep', 1_000, async () => {}), /a background task named sweep exists/);

    assert.deepEqual(registry.running(), [], 'nothing runs before start');
    await registry.start();
    await registry.start();
    assert.deepEqual(registry.running(), ['notices', 'writer', 'sweep', 'jobs']);
    assert.deepEqual(
      registry.list().map((task) => `${task.kind} ${task.name}`),
      ['resource pool', 'listener notices', 'writer writer', 'timer sweep', 'queue jobs'],
    );
    assert.deepEqual(await Promise.all(registry.queues().map(async (queue) => [queue.name, await queue.stats()])), [
      ['jobs', { pending: 2, oldestAgeSeconds: 30 }],
    ]);
    await registry.close();
    assert.deepEqual(events, ['listen', 'sweep', 'work', 'stop work', 'last write', 'unlisten', 'close pool']);
    assert.deepEqual(registry.running(), [], 'nothing runs after close');
    assert.deepEqual(errors, []);
  });

  it('stops every task even when one fails to stop, and says which', async () => {
    const logged: object[] = [];
    const registry = createBackgroundRegistry({ log: { error: (details) => logged.push(details) } });
    let closed = false;
    registry.resource('first', () => void (closed = true));
    registry.resource('broken', () => Promise.reject(new Error('stuck')));
    await registry.close();
    assert.equal(closed, true);
    assert.equal((logged[0] as { task: string }).task, 'broken');
  });

  it('leaves no timer behind a writer it has not started: building one is free', async () => {
    const before = timers();
    const writer = createAuditWriter({
      repository: { recordFolded: async () => {} } as unknown as AuditRepository,
      log: { error: () => {} },
    });
    writer.add({ actor: 'system', action: 'users.add', outcome: 'ok' });
    assert.equal(timers(), before, 'the audit writer holds no timer of its own');
    await writer.close();
    assert.equal(writer.pending(), 0, 'and still writes what it holds when it closes');
  });
});

describe('the domain’s background work', () => {
  const t = useTestApp();

  it('runs every task of the registry in the server', () => {
    assert.deepEqual(t.app.domain.background.running().sort(), [
      'account-cleanups',
      'allowlist-notifications',
      'audit',
      'audit-retention',
      'rate-limit-sweep',
      'rate-limits',
      'recent-invoices',
    ]);
    assert.deepEqual(
      t.app.domain.background.queues().map((queue) => queue.name),
      ['account-cleanups', 'arrival-mail'],
      'the mail queue is measured even where no relay is set, and worked only where one is',
    );
  });

  it('runs nothing in a CLI job, and still writes its audit entries when the job ends', async () => {
    const databaseTarget = t.database.kind === 'pglite' ? await testPgliteTarget() : undefined;
    let running: string[] | undefined;
    let timersBefore = 0;
    let timersAfterQueuing = 0;
    let pendingInJob = 0;
    const domain = await withDomain(
      t.config,
      async (cli) => {
        running = cli.background.running();
        timersBefore = timers();
        cli.auditTrail.queued({ actor: 'cli:test', action: 'users.add', target: 'cli@example.com', outcome: 'ok' });
        timersAfterQueuing = timers();
        pendingInJob = cli.auditWriter.pending();
        return cli;
      },
      databaseTarget ? { databaseTarget } : {},
    );
    assert.deepEqual(running, [], 'no task of the registry runs in a one-off job');
    assert.equal(timersAfterQueuing, timersBefore, 'queuing an audit entry starts no timer');
    assert.equal(pendingInJob, 1, 'held until the job ends');
    assert.equal(domain.auditWriter.pending(), 0, 'written when the job ended');
    assert.match(await domain.metrics.registry.metrics(), /^portal_audit_entries_dropped_total 0$/m, 'none lost');
    assert.deepEqual(domain.background.running(), []);
  });
});

describe('a background loop whose database is away', () => {
  it('waits longer after each failed run, at most its ceiling, and keeps its pace again after a success', async () => {
    assert.deepEqual(
      [0, 1, 2, 3, 10].map((failures) => backoffMs(500, failures, 10_000)),
      [0, 1_000, 2_000, 4_000, 10_000],
    );
    assert.equal(backoffMs(3_600_000, 1, 60_000), 3_600_000, 'an hourly loop waits an hour, not less');

    let away = true;
    let runs = 0;
    const errors: unknown[] = [];
    const loop = createLoop({
      everyMs: 10,
      run: async () => {
        runs++;
        if (away) throw new Error('No database server accepts writes (a failover may be under way)');
      },
      onError: (error) => errors.push(error),
    });
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 700));
    // At its own pace, 70 runs that fail at once; backing off (20, 40, 80, 160, 320 ms…), a handful.
    assert.ok(runs >= 2 && runs <= 8, `${runs} runs in 700 ms`);
    assert.equal(errors.length, runs, 'each failure reported once');

    away = false;
    const before = runs;
    const deadline = performance.now() + 10_000;
    while (runs < before + 5 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await loop.stop();
    assert.ok(runs >= before + 5, 'back at its own pace once a run succeeds');
  });
});
