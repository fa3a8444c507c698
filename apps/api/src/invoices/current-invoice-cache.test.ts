import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Database } from '../db/client.ts';
import { createInvoicesRepository, type InvoiceRow } from './repository.ts';

/** A database whose row reads the test answers one at a time (the only statement `findCurrent` sends). */
function heldDatabase() {
  const reads: ((rows: Partial<InvoiceRow>[]) => void)[] = [];
  const db = {
    select: () => ({
      from: () => ({
        where: () => ({
          limit: () => new Promise<Partial<InvoiceRow>[]>((resolve) => reads.push(resolve)),
        }),
      }),
    }),
  };
  return { reads, db: db as unknown as Database };
}

const row = (sha256: string) => ({ parcelCode: 'PARCEL1', sha256, size: 1 }) as Partial<InvoiceRow>;

describe('the current-invoice row of the download path', () => {
  it('is read once however many downloads of the code arrive while it is read', async () => {
    const { reads, db } = heldDatabase();
    const repository = createInvoicesRepository(db);
    const downloads = Array.from({ length: 5 }, () => repository.findCurrent('PARCEL1'));
    assert.equal(reads.length, 1, 'one read for five downloads');
    reads[0]!([row('a')]);
    for (const found of await Promise.all(downloads)) assert.equal(found?.sha256, 'a');
    const remembered = repository.findCurrent('PARCEL1');
    assert.ok(!(remembered instanceof Promise), 'a remembered row is answered there and then');
    assert.equal(remembered.sha256, 'a');
    assert.equal(reads.length, 1, 'and then remembered');
  });

  it('never remembers a missing invoice, so one stored meanwhile shows at the next download', async () => {
    const { reads, db } = heldDatabase();
    const repository = createInvoicesRepository(db);
    const first = repository.findCurrent('PARCEL1');
    reads[0]!([]);
    assert.equal(await first, undefined);
    const second = repository.findCurrent('PARCEL1');
    assert.equal(reads.length, 2);
    reads[1]!([row('a')]);
    assert.equal((await second)?.sha256, 'a');
  });

  it('does not hand a read begun before a change to a download after it, nor remember it', async () => {
    const { reads, db } = heldDatabase();
    const repository = createInvoicesRepository(db);
    const before = repository.findCurrent('PARCEL1');
    repository.evict('PARCEL1');
    const after = repository.findCurrent('PARCEL1');
    assert.equal(reads.length, 2, 'the download after the change reads the row itself');
    reads[1]!([row('new')]);
    reads[0]!([row('old')]);
    assert.equal((await before)?.sha256, 'old');
    assert.equal((await after)?.sha256, 'new');
    assert.equal((await repository.findCurrent('PARCEL1'))?.sha256, 'new', 'the older read did not overwrite it');
    assert.equal(reads.length, 2);
  });
});
