import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { startSentryReceiver, type ReceivedEvent } from '@portal/dev-stack';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import { currentRelease } from '../release.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

const EMAIL = 'jane.doe@example.com';
const PARCEL = 'SECRET4711';
const FAKE_TOKEN = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.c2ln';

const receiver = await startSentryReceiver();

const breakingIdentity = (real: IdentityProvider): IdentityProvider =>
  new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'verifyIdToken') {
        return async (token: string) => {
          throw new TypeError(`cannot verify ${token} of ${EMAIL} for /api/invoice?parcelCode=${PARCEL}`);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });

async function eventsArriving(count: number): Promise<ReceivedEvent[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const events = (await (await fetch(`${receiver.url}/events`)).json()) as ReceivedEvent[];
    if (events.length >= count) return events;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`fewer than ${count} events reached the receiver`);
}

describe('server-side error reporting', () => {
  const t = useTestApp({ env: { SENTRY_DSN: receiver.dsn }, wrapIdentity: breakingIdentity });
  before(() => fetch(`${receiver.url}/events`, { method: 'DELETE' }));
  after(() => receiver.close());

  it('reports an unexpected error with the environment and request id, scrubbed of personal data', async () => {
    const response = await t.app.inject({
      url: `/api/invoice?parcelCode=${PARCEL}`,
      headers: { authorization: `Bearer ${FAKE_TOKEN}` },
    });
    assert.equal(response.statusCode, 500);
    await t.errorReporter.flush(2000);
    const [event] = await eventsArriving(1);
    assert.ok(event);
    assert.equal(event.environment, 'L1');
    assert.equal(event.release, currentRelease().release);
    assert.equal((event.tags as Record<string, string>).request_id, response.headers['x-request-id']);
    assert.deepEqual((event.contexts as Record<string, unknown>).request, { method: 'GET', route: '/api/invoice' });
    assert.equal(event.exception?.values?.[0]?.type, 'TypeError');
    assert.match(event.exception?.values?.[0]?.value ?? '', /^cannot verify \[masked\] of \[masked\]/);
    const sent = JSON.stringify(event);
    for (const secret of [EMAIL, PARCEL, FAKE_TOKEN, 'eyJ']) assert.ok(!sent.includes(secret), `${secret} was sent`);
  });

  it('reports an unhandled promise rejection (in a process of its own: the test runner catches its own)', async () => {
    await fetch(`${receiver.url}/events`, { method: 'DELETE' });
    const script = `
      const { openErrorReporter } = await import(${JSON.stringify(import.meta.resolve('./error-reporting.ts'))});
      const reporter = await openErrorReporter({ dsn: ${JSON.stringify(receiver.dsn)}, environment: 'L1', release: 'parcel-invoice-portal@9.9.9+abc' });
      Promise.reject(new Error('nobody waited for ${EMAIL}'));
      setTimeout(() => reporter.flush(2000), 100);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: 'ignore',
    });
    await once(child, 'exit');
    const [event] = await eventsArriving(1);
    assert.equal(event?.exception?.values?.[0]?.value, 'nobody waited for [masked]');
    assert.equal(event?.environment, 'L1');
    assert.equal(event?.release, 'parcel-invoice-portal@9.9.9+abc');
  });
});
