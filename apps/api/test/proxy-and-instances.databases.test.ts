import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../src/app.ts';
import { buildDomain, type Domain } from '../src/domain.ts';
import { createLogger } from '../src/observability/logging.ts';
import { useTestApp } from './helpers/test-app.ts';

const lookup = (remoteAddress: string, forwardedFor?: string) => ({
  url: '/api/users/a@example.com',
  remoteAddress,
  ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
});

async function statuses(app: FastifyInstance, requests: ReturnType<typeof lookup>[]) {
  const result = [];
  for (const request of requests) result.push((await app.inject(request)).statusCode);
  return result;
}

describe('client addresses behind a trusted proxy (TRUST_PROXY=10.0.0.5)', () => {
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.5' } });

  it('counts each client the proxy names apart, so one office is not one bucket', async () => {
    assert.deepEqual(
      await statuses(t.app, [lookup('10.0.0.5', '198.51.100.1'), lookup('10.0.0.5', '198.51.100.1')]),
      [404, 404],
    );
    assert.deepEqual(await statuses(t.app, [lookup('10.0.0.5', '198.51.100.1')]), [429]);
    assert.deepEqual(await statuses(t.app, [lookup('10.0.0.5', '198.51.100.2')]), [404]);
  });

  it("ignores what a client puts in front of the proxy's entry: spoofed X-Forwarded-For buys nothing", async () => {
    const spoofed = [1, 2, 3].map((i) => lookup('10.0.0.5', `203.0.113.${i}, 198.51.100.9`));
    assert.deepEqual(await statuses(t.app, spoofed), [404, 404, 429]);
  });

  it('ignores X-Forwarded-For from a direct client that is not a listed proxy', async () => {
    const direct = [1, 2, 3].map((i) => lookup('192.0.2.7', `203.0.113.${i}`));
    assert.deepEqual(await statuses(t.app, direct), [404, 404, 429]);
  });
});

describe('client addresses with TRUST_PROXY as a hop count (1)', () => {
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '2', TRUST_PROXY: '1' } });

  it('takes the address the nearest proxy saw, not one the client wrote further left', async () => {
    const spoofed = [1, 2, 3].map((i) => lookup('10.9.9.9', `203.0.113.${i}, 198.51.100.77`));
    assert.deepEqual(await statuses(t.app, spoofed), [404, 404, 429]);
  });
});

describe('two API instances on one database', () => {
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '4' } });
  const instances: { app: FastifyInstance; domain: Domain }[] = [];
  before(async () => {
    // Two domains over the same infrastructure are what two instances build on one database. Their
    // background work is not started: the tests send the counts themselves, at the moments they choose.
    for (let i = 0; i < 2; i++) {
      const domain = buildDomain(
        {
          config: { ...t.config, instances: 2 },
          database: t.database,
          identity: t.identity,
          blobStore: t.blobStore,
          errorReporter: t.errorReporter,
        },
        { log: createLogger({ logLevel: 'silent' }) },
      );
      const app = await createApp(domain, createLogger({ logLevel: 'silent' }));
      await app.ready();
      instances.push({ app, domain });
    }
  });
  after(async () => {
    for (const { app, domain } of instances) {
      await app.close();
      await domain.close();
    }
  });
  const alternating = async (count: number, between: () => Promise<unknown> = async () => {}) => {
    const result = [];
    for (let i = 0; i < count; i++) {
      result.push((await instances[i % 2]!.app.inject(lookup('192.0.2.50'))).statusCode);
      await between();
    }
    return result;
  };
  const flushBoth = () => Promise.all(instances.map(({ domain }) => domain.rateLimits.flush()));

  it('share one budget per client: a burst over both gets no more calls than one instance would allow', async () => {
    // Before either has heard the other, each allows its share: half of four.
    assert.deepEqual(await alternating(6), [404, 404, 404, 404, 429, 429]);
    for (const { domain } of instances) domain.rateLimits.reset();
  });

  it("share one budget per client: calls further apart than a flush overshoot by one of the other's at most", async () => {
    // Each instance learns the shared count when it sends its own: the fifth call, on the first instance,
    // is decided before it has heard the second's fourth, unless a background flush (every half second) told
    // it in between, as on a busy machine. The sixth is refused by both.
    const answers = await alternating(6, flushBoth);
    assert.deepEqual(answers.slice(0, 4), [404, 404, 404, 404]);
    assert.ok(answers[4] === 404 || answers[4] === 429, `fifth call: ${answers[4]}`);
    assert.equal(answers[5], 429);
    assert.deepEqual(await alternating(2), [429, 429]);
    for (const { domain } of instances) domain.rateLimits.reset();
  });
});
