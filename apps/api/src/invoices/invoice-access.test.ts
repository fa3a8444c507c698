import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { DomainError } from '../domain-error.ts';
import { createInvoiceAccess, type InvoiceAccessDeps } from './invoice-access.ts';
import type { InvoiceRow } from './repository.ts';

const SHA = 'b'.repeat(64);
const PDF = Buffer.from('%PDF-1.7 the invoice');

/** Every collaborator answering from memory, each call written down: what a download does, step by step. */
function fakes(options: { downloadWaitMs?: number } = {}) {
  const calls: string[] = [];
  const row = { parcelCode: 'ABC123', sha256: SHA, size: PDF.length } as InvoiceRow;
  const deps: InvoiceAccessDeps = {
    invoices: {
      findCurrent: (code: string) => (calls.push(`row ${code}`), code === row.parcelCode ? row : undefined),
      findVersion: async () => undefined,
      listVersions: async () => [],
    } as unknown as InvoiceAccessDeps['invoices'],
    warnings: { pending: async () => [] },
    blobStore: {
      open: async () => (calls.push('blob read'), { size: PDF.length, stream: Readable.from([PDF]) }),
    } as unknown as BlobStore,
    rateLimits: {
      downloads: {
        hit: (user: string) => (calls.push(`download allowance ${user}`), options.downloadWaitMs),
        spentFor: () => undefined,
      },
      unknownParcels: {
        reserve: () => ({ waitMs: undefined, settle: (counts: boolean) => void calls.push(`guess settled ${counts}`) }),
      },
    } as unknown as InvoiceAccessDeps['rateLimits'],
    audit: {
      queued: (event) => void calls.push(`audit ${event.action} ${event.target} ${event.outcome} ${event.detail}`),
    },
    metrics: {
      invoiceDownloads: { inc: () => void calls.push('counted') },
      invoiceDownloadBytes: { inc: (bytes?: number) => void calls.push(`bytes ${bytes}`) },
    } as unknown as InvoiceAccessDeps['metrics'],
    onOpened: (user, code) => void calls.push(`opened ${user} ${code}`),
    delivery: 'direct',
  };
  return { access: createInvoiceAccess(deps), calls };
}

const request = { user: 'jane@example.com', parcelCode: 'ABC123', part: 'pdf' as const };

describe('opening an invoice at once', () => {
  it('answers without a promise once the bytes are in memory, with every step of a download still taken', async () => {
    const { access, calls } = fakes();
    const first = access.openAtOnce(request);
    assert.ok(first instanceof Promise, 'the first download reads the bytes');
    assert.deepEqual((await first).body, PDF);
    calls.length = 0;
    const again = access.openAtOnce(request);
    assert.ok(!(again instanceof Promise), 'the next one is answered there and then');
    assert.deepEqual(again.body, PDF);
    assert.deepEqual(calls, [
      'download allowance jane@example.com',
      'row ABC123',
      'guess settled false',
      `audit invoice.download ABC123 ok sha256 ${SHA}`,
      'opened jane@example.com ABC123',
      'counted',
      `bytes ${PDF.length}`,
    ]);
  });

  it('throws a refusal there and then: a spent allowance, or an unknown code (audited, and counted as a guess)', () => {
    const spent = fakes({ downloadWaitMs: 30_000 });
    assert.throws(
      () => spent.access.openAtOnce(request),
      (error: unknown) => error instanceof DomainError && error.kind === 'rate-limited',
    );
    assert.ok(!spent.calls.some((call) => call.startsWith('row')), 'no row is read past a spent allowance');

    const unknown = fakes();
    assert.throws(
      () => unknown.access.openAtOnce({ ...request, parcelCode: 'NOPE12' }),
      (error: unknown) => error instanceof DomainError && error.kind === 'not-found',
    );
    assert.deepEqual(unknown.calls.slice(-2), [
      'guess settled true',
      'audit invoice.download NOPE12 refused unknown parcel code',
    ]);
  });

  it('keeps `open` a promise for its other callers, a refusal a rejection', async () => {
    const { access } = fakes({ downloadWaitMs: 30_000 });
    const opening = access.open(request);
    assert.ok(opening instanceof Promise);
    await assert.rejects(opening, (error: unknown) => error instanceof DomainError && error.kind === 'rate-limited');
  });
});
