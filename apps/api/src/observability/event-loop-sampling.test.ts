import assert from 'node:assert/strict';
import perfHooks from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { createMetrics, EVENT_LOOP_SAMPLE_MS, type MetricsSources } from './metrics.ts';

const sources: MetricsSources = {
  poolUse: () => ({ total: 1, idle: 1, waiting: 0 }),
  allowlist: { isLive: () => true, heartbeatAgeSeconds: () => 0 },
  jobQueues: () => [],
  migrationsApplied: async () => 1,
  migrationsExpected: async () => 1,
  auditPending: () => 0,
};

describe("the event loop's delay", () => {
  it('is sampled every 100 ms, not every 10 (a timer waking an idle process 100 times a second)', () => {
    const original = perfHooks.monitorEventLoopDelay;
    const resolutions: (number | undefined)[] = [];
    perfHooks.monitorEventLoopDelay = (options) => {
      resolutions.push(options?.resolution);
      return original(options);
    };
    try {
      createMetrics(sources);
    } finally {
      perfHooks.monitorEventLoopDelay = original;
    }
    assert.equal(EVENT_LOOP_SAMPLE_MS, 100);
    assert.deepEqual(resolutions, [100]);
  });

  it('is still reported, with the percentiles the dashboard reads', async () => {
    const text = await createMetrics(sources).registry.metrics();
    for (const series of ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds']) {
      assert.match(text, new RegExp(`^${series} `, 'm'), series);
    }
  });
});
