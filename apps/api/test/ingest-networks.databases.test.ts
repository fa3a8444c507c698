import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditLog } from '../src/db/schema.ts';
import { INGEST_NETWORK_MESSAGE } from '../src/plugins/authorization.ts';
import { fakePdf } from './helpers/fixtures.ts';
import { useTestApp } from './helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';

/** INGEST_TOKEN_NETWORKS: the ingestion token works only from the networks the ingestion job calls from. */
describe('the ingestion token outside its networks', () => {
  const t = useTestApp({ env: { INGEST_TOKEN, INGEST_TOKEN_NETWORKS: '10.0.7.0/24' } });

  const store = (parcelCode: string, remoteAddress: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload: fakePdf(parcelCode),
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/pdf' },
      remoteAddress,
    });

  it('stores an invoice sent from inside, and refuses the same token from anywhere else', async () => {
    assert.equal((await store('NET-INSIDE', '10.0.7.9')).statusCode, 201);
    const outside = await store('NET-OUTSIDE', '203.0.113.9');
    assert.equal(outside.statusCode, 403);
    assert.equal(outside.json().message, INGEST_NETWORK_MESSAGE);
    const person = await t.createAccount('person@example.com');
    const opened = await t.app.inject({
      url: '/api/invoice?parcelCode=NET-OUTSIDE',
      headers: t.bearer(person.idToken),
    });
    assert.equal(opened.statusCode, 404, 'nothing was stored');
    await t.domain.auditWriter.flush();
    const entries = await t.database.db.select().from(auditLog);
    assert.ok(
      entries.some((entry) => entry.outcome === 'refused' && entry.detail?.includes(INGEST_NETWORK_MESSAGE)),
      'the refusal is audited',
    );
  });
});

/**
 * Behind a proxy: X-Forwarded-For names the client only when the proxy TRUST_PROXY lists sent it. Any other
 * machine that reaches the instance (another pod, another container) is itself the client, whatever it says.
 */
describe('the ingestion token behind a listed proxy', () => {
  const PROXY = '10.0.4.21';
  const t = useTestApp({ env: { INGEST_TOKEN, INGEST_TOKEN_NETWORKS: '10.0.7.0/24', TRUST_PROXY: PROXY } });

  const store = (parcelCode: string, remoteAddress: string, forwardedFor: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload: fakePdf(parcelCode),
      headers: {
        authorization: `Bearer ${INGEST_TOKEN}`,
        'content-type': 'application/pdf',
        'x-forwarded-for': forwardedFor,
      },
      remoteAddress,
    });

  it('believes the proxy, and ignores the same header forged by a peer it does not list', async () => {
    assert.equal((await store('NET-PROXIED', PROXY, '10.0.7.9')).statusCode, 201);
    const forged = await store('NET-FORGED', '10.0.9.15', '10.0.7.9');
    assert.equal(forged.statusCode, 403, forged.body);
    assert.equal(forged.json().message, INGEST_NETWORK_MESSAGE);
    // Nor may a listed proxy pass on a chain whose client sits outside: the nearest untrusted address counts.
    const outside = await store('NET-CHAINED', PROXY, '10.0.7.9, 203.0.113.9');
    assert.equal(outside.statusCode, 403, outside.body);
  });
});
