import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fakePdf } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';

/** Sends the headers and part of the body over a real socket, then hangs up, as a dropped client does. */
async function truncatedUpload(port: number, parcelCode: string, declared: number, sent: Buffer) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(
    `PUT /api/invoices/${parcelCode} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${INGEST_TOKEN}\r\n` +
      `Content-Type: application/pdf\r\nContent-Length: ${declared}\r\n\r\n`,
  );
  socket.write(sent);
  await sleep(100);
  socket.destroy();
}

describe('PUT /api/invoices/:parcelCode with a truncated upload', () => {
  const t = useTestApp({ env: { INGEST_TOKEN } });

  it('refuses it as a client error, leaving no partial file and no row', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const before = await t.invoiceStore.contents();

    await truncatedUpload(port, 'CUT1', 200_000, fakePdf('cut', 50_000));

    // The client is gone, so the outcome is read from the audit log the ingestion writes.
    let entry;
    for (let attempt = 0; attempt < 50 && entry?.target !== 'CUT1'; attempt++) {
      await sleep(50);
      [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
    }
    assert.equal(entry?.outcome, 'refused');
    assert.match(entry?.detail ?? '', /^400 interrupted/);
    assert.deepEqual(await t.invoiceStore.contents(), before);
    assert.equal(await t.app.domain.invoices.findByParcelCode('CUT1'), undefined);
  });
});
