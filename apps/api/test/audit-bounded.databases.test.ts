import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { createAuditWriter } from '../src/audit/audit-writer.ts';
import { useTestApp } from './helpers/test-app.ts';

/** Anonymous traffic must not grow the audit log without bound, and nothing is kept forever. */
describe('a bounded audit log', () => {
  const t = useTestApp();
  const rows = async () => t.app.domain.audit.list({ limit: 500, offset: 0 });

  it('folds a flood of anonymous refusals into one row per client, reason and minute, with its count', async () => {
    for (let i = 0; i < 300; i++) await t.app.inject({ url: '/api/invoice?parcelCode=X1', remoteAddress: '192.0.2.1' });
    // Rotating addresses inside one IPv6 /64 is one client.
    for (let i = 0; i < 100; i++) {
      await t.app.inject({ url: '/api/invoice?parcelCode=X1', remoteAddress: `2001:db8:5:5::${i.toString(16)}` });
    }
    await t.app.domain.auditWriter.flush();
    const entries = await rows();
    assert.ok(entries.length <= 4, `${entries.length} rows`);
    // Summed: a run that crosses a minute's end holds two rows of a client, one each side of it.
    const byClient: Record<string, number> = {};
    for (const entry of entries) byClient[String(entry.client)] = (byClient[String(entry.client)] ?? 0) + entry.count;
    const total = entries.reduce((sum, entry) => sum + entry.count, 0);
    assert.equal(total, 400);
    assert.ok(
      (byClient['192.0.2.1'] ?? 0) >= 150 && (byClient['2001:db8:5:5::/64'] ?? 0) >= 50,
      JSON.stringify(byClient),
    );
  });

  it('caps the rows a minute may add: refusals from more clients than that count under client "*"', async () => {
    const writer = createAuditWriter({
      repository: t.app.domain.audit,
      log: t.app.log,
      maxRefusalRowsPerMinute: 5,
      now: () => Date.UTC(2030, 0, 1, 12, 0, 30),
    });
    for (let i = 0; i < 50; i++) {
      writer.refuse({ client: `198.51.100.${i}`, actor: null, action: 'GET /api/invoice', detail: '401 sign in' });
    }
    await writer.close();
    const entries = await rows();
    assert.equal(entries.length, 6);
    assert.equal(entries.find((entry) => entry.client === '*')?.count, 45);
  });

  it('folds repeated downloads of one invoice by one person into a row a minute, across two writers', async () => {
    let at = Date.UTC(2030, 0, 1, 12, 0, 10);
    const writers = [1, 2].map(() =>
      createAuditWriter({ repository: t.app.domain.audit, log: t.app.log, now: () => at }),
    );
    const download = {
      actor: 'jane@example.com',
      action: 'invoice.download' as const,
      target: 'P1',
      outcome: 'ok' as const,
    };
    for (let i = 0; i < 30; i++) writers[i % 2]?.add({ ...download, detail: 'sha256 aa' });
    writers[0]?.add({ ...download, target: 'P2', detail: 'sha256 bb' });
    await Promise.all(writers.map((writer) => writer.flush()));
    at += 60_000;
    writers[1]?.add({ ...download, detail: 'sha256 aa' });
    await Promise.all(writers.map((writer) => writer.close()));
    const entries = (await rows()).map((entry) => [entry.at, entry.target, entry.count]);
    assert.deepEqual(entries, [
      ['2030-01-01T12:01:00.000Z', 'P1', 1],
      ['2030-01-01T12:00:00.000Z', 'P2', 1],
      ['2030-01-01T12:00:00.000Z', 'P1', 30],
    ]);
  });

  it('deletes entries older than the retention in batches, keeping newer ones', async () => {
    await t.database.db.execute(sql`
      insert into audit_log (at, actor, action, outcome)
      select now() - interval '401 days', 'old@example.com', 'invoice.download', 'ok' from generate_series(1, 12000)`);
    await t.app.domain.audit.record({ actor: 'new@example.com', action: 'invoice.download', outcome: 'ok' });
    const removed = await t.app.domain.audit.deleteOlderThan(new Date(Date.now() - 400 * 86_400_000));
    assert.equal(removed, 12000);
    assert.equal(await t.app.domain.audit.count(), 1);
  });
});
