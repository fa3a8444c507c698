import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../src/plugins/errors.ts';
import { fakePdf } from '../helpers/fixtures.ts';
import { secondsUntil, startTcpProxy, timed } from '../helpers/tcp-proxy.ts';
import { PRODUCTION_QUERY_TIMEOUT, useTestApp } from '../helpers/test-app.ts';

// Why a process of its own (.own-process): it cuts and restores the database under the apps it builds, for seconds at a time.

// The API reaches PostgreSQL through a proxy this test controls; the shared cluster itself is never touched.
const realUrl = new URL(process.env.DATABASE_URL ?? '');
const proxy = await startTcpProxy({ host: realUrl.hostname, port: Number(realUrl.port || 5432) });
const proxiedUrl = new URL(realUrl);
proxiedUrl.host = `127.0.0.1:${proxy.port}`;

/** Within this, every call that needs the database answers during an outage. */
const ANSWER_WITHIN_S = 5;

describe('a PostgreSQL outage under a running server', () => {
  const t = useTestApp({ env: { DATABASE_URL: proxiedUrl.href, ...PRODUCTION_QUERY_TIMEOUT } });
  after(() => proxy.close());

  async function signedInUserWithInvoice() {
    const pdf = fakePdf('outage');
    const blob = await t.blobStore.put(pdf, { maxBytes: t.config.maxInvoiceBytes });
    await t.app.domain.invoices.recordVersion({ parcelCode: 'OUTAGE1', uploadedBy: 'test', ...blob });
    const user = await t.createAccount('user@example.com');
    const newcomer = await t.createAccount('newcomer@example.com');
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const invoiceFor = (idToken: string) => () =>
      t.app.inject({ url: '/api/invoice?parcelCode=OUTAGE1', headers: t.bearer(idToken) });
    const openInvoice = invoiceFor(user.idToken);
    const newcomerInvoice = invoiceFor(newcomer.idToken);
    const listUsers = () => t.app.inject({ url: '/api/users', headers: t.bearer(admin.idToken) });
    const readyz = () => t.app.inject({ url: '/api/readyz' });
    assert.equal((await openInvoice()).statusCode, 200);
    return { pdf, openInvoice, newcomerInvoice, listUsers, readyz };
  }

  async function assertUnavailable(label: string, request: () => Promise<LightMyRequestResponse>) {
    const { answer, seconds } = await timed(request);
    assert.equal(answer.statusCode, 503, `${label}: ${answer.body}`);
    assert.equal(answer.headers['retry-after'], '5', `${label}: a 503 says when to try again`);
    assert.ok(seconds < ANSWER_WITHIN_S, `${label} took ${seconds.toFixed(2)} s`);
    return seconds;
  }

  // Black-holed: new connections hang; stalled: the open ones stop answering in the middle of a query.
  for (const fault of ['cut and refused', 'black-holed', 'stalled'] as const) {
    it(`answers 503 within ${ANSWER_WITHIN_S} s while the database is ${fault}, and recovers on its own`, async (test) => {
      const { pdf, openInvoice, newcomerInvoice, listUsers, readyz } = await signedInUserWithInvoice();
      if (fault === 'cut and refused') await proxy.refuse();
      if (fault === 'black-holed') proxy.cut();
      if (fault !== 'cut and refused') proxy.stall();
      let longest;
      let knownUserSaw;
      try {
        // Someone this instance has not served yet needs the database for their first download.
        longest = Math.max(
          await assertUnavailable('invoice', newcomerInvoice),
          await assertUnavailable('user list', listUsers),
        );
        // Still ready: the instance serves its own 503 (and the SPA's pages); taking it out of the load
        // balancer would turn that into the balancer's bare 502.
        assert.deepEqual((await readyz()).json(), { status: 'ready' });
        const answer = await newcomerInvoice();
        assert.deepEqual(answer.json(), {
          message: DATABASE_UNAVAILABLE_MESSAGE,
          code: 'unavailable',
          requestId: answer.headers['x-request-id'],
        });
        // Nothing about the failure leaks, and the process is still here to answer.
        assert.doesNotMatch(answer.body, /ECONN|terminated|timeout|postgres/i);
        // Someone just served may still get the invoice from what the instance holds in memory (until
        // it notices the outage or its copy of the invoice row expires): the right bytes, or the same 503.
        const { answer: known, seconds } = await timed(openInvoice);
        assert.ok(seconds < ANSWER_WITHIN_S, `known user waited ${seconds.toFixed(2)} s`);
        if (known.statusCode === 200) assert.deepEqual(known.rawPayload, Buffer.from(pdf));
        else assert.equal(known.json().message, DATABASE_UNAVAILABLE_MESSAGE);
        knownUserSaw = known.statusCode;
      } finally {
        await proxy.restore();
      }
      const recovery = await secondsUntil(newcomerInvoice, (response) => response.statusCode === 200);
      assert.equal((await openInvoice()).statusCode, 200);
      assert.equal((await listUsers()).statusCode, 200);
      assert.equal((await readyz()).statusCode, 200);
      assert.ok(recovery < 5, `back after ${recovery.toFixed(2)} s`);
      test.diagnostic(
        `database ${fault}: users saw 503 "${DATABASE_UNAVAILABLE_MESSAGE}" (a user just served saw ${knownUserSaw}), longest answer ${longest.toFixed(2)} s, normal service ${recovery.toFixed(2)} s after the database came back`,
      );
    });
  }

  it('survives a connection lost in the middle of a transaction (a user removal)', async () => {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    await t.createAccount('user@example.com');
    // The removal's transaction is in flight when its connection is cut.
    const removal = t.app.inject({
      method: 'DELETE',
      url: '/api/users/user@example.com',
      headers: t.bearer(admin.idToken),
    });
    proxy.cut();
    const answer = await removal;
    assert.ok([200, 503].includes(answer.statusCode), answer.body);
    await proxy.restore();
    const listed = await t.app.domain.users.findByEmail('user@example.com');
    const account = await t.identity.findUserByEmail('user@example.com');
    // Either both are gone or both remain: never a row without an account.
    assert.equal(Boolean(listed), Boolean(account), `row ${Boolean(listed)}, account ${Boolean(account)}`);
  });
});
