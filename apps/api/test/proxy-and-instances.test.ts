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

describe('client addresses behind a trusted proxy (TRUST_PROXY=10.0.0.0/8)', () => {
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8' } });

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
  let second: FastifyInstance;
  let secondDomain: Domain;
  before(async () => {
    // A second domain over the same infrastructure is what a second instance builds on the same database.
    secondDomain = buildDomain(
      {
        config: t.config,
        database: t.database,
        identity: t.identity,
        blobStore: t.blobStore,
        errorReporter: t.errorReporter,
      },
      { log: createLogger({ logLevel: 'silent' }) },
    );
    await secondDomain.start();
    second = await createApp(secondDomain, createLogger({ logLevel: 'silent' }));
    await second.ready();
  });
  after(async () => {
    await second.close();
    await secondDomain.close();
  });

  it('share one budget per client: alternating instances get no more calls than one', async () => {
    const result = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? t.app : second;
      result.push((await app.inject(lookup('192.0.2.50'))).statusCode);
    }
    assert.deepEqual(result, [404, 404, 404, 404, 429, 429]);
  });
});
