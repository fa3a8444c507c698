import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { invoiceOpens, users } from '../db/schema.ts';
import { testPgliteTarget } from '../../test/helpers/pglite-template.ts';
import { createFlushLoop } from '../background/loops.ts';
import { createRecentInvoices, RECENT_INVOICES } from './recent-invoices.ts';

const JANE = 'jane@example.com';
const JOE = 'joe@example.com';
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 9, 0, second));

describe('recently opened invoices, written together', () => {
  let database: DatabaseHandle;
  const rows = async () =>
    (
      await database.db
        .select({ user: invoiceOpens.userEmail, code: invoiceOpens.parcelCode, at: invoiceOpens.openedAt })
        .from(invoiceOpens)
        .orderBy(invoiceOpens.userEmail, invoiceOpens.parcelCode)
    ).map((row) => `${row.user} ${row.code} ${row.at.getUTCSeconds()}`);

  before(async () => {
    database = await openDatabase(await testPgliteTarget());
  });
  after(() => database.close());
  beforeEach(async () => {
    await database.db.execute(sql`delete from invoice_opens`);
    await database.db.execute(sql`delete from users`);
    await database.db.insert(users).values([{ email: JANE }, { email: JOE }]);
  });

  it('writes a burst of opens as one row per invoice, with the newest time, only once a second has passed', async () => {
    // No flush loop: only an explicit write writes.
    const recent = createRecentInvoices(database.db);
    for (let second = 0; second < 50; second++) recent.recordOpen(JANE, 'P1', at(second));
    recent.recordOpen(JANE, 'P1', at(10));
    recent.recordOpen(JOE, 'P2', at(5));
    assert.deepEqual(await rows(), [], 'nothing written on the answer’s path');
    await recent.flush();
    assert.deepEqual(await rows(), [`${JANE} P1 49`, `${JOE} P2 5`]);
    // An older open arriving later (another instance's, say) never moves a row back in time.
    recent.recordOpen(JANE, 'P1', at(30));
    await recent.flush();
    assert.deepEqual(await rows(), [`${JANE} P1 49`, `${JOE} P2 5`]);
    await recent.close();
  });

  it('keeps the newest few per person, and a person reading their list here sees their last open at once', async () => {
    const recent = createRecentInvoices(database.db);
    for (let index = 0; index < RECENT_INVOICES + 5; index++) recent.recordOpen(JANE, `P${index}`, at(index));
    recent.recordOpen(JOE, 'P0', at(0));
    assert.equal(await recent.countFor(JANE), RECENT_INVOICES);
    assert.equal(await recent.countFor(JOE), 1, "one person's trim leaves the others' rows alone");
    recent.recordOpen(JANE, 'P3', at(59));
    await database.db.execute(sql`insert into invoices (parcel_code, sha256, size, uploaded_by, format)
      values ('P3', ${'0'.repeat(64)}, 1, 'test', 'pdf')`);
    const list = await recent.list(JANE);
    assert.equal(list[0]?.parcelCode, 'P3', 'the open just made is first, without waiting for the timer');
    await recent.close();
  });

  it('keeps what it could not write while the database is away, and writes it on the next try', async () => {
    const failures: unknown[] = [];
    const recent = createRecentInvoices(database.db, { log: (error) => failures.push(error) });
    // Its flush loop as the background registry runs it.
    const loop = createFlushLoop(
      { flush: recent.writeDue, close: recent.close },
      { everyMs: 50, onError: (error) => failures.push(error) },
    );
    loop.start();
    await database.db.execute(sql`alter table invoice_opens rename to invoice_opens_away`);
    try {
      recent.recordOpen(JANE, 'P1', at(1));
      await assert.rejects(recent.flush());
    } finally {
      await database.db.execute(sql`alter table invoice_opens_away rename to invoice_opens`);
    }
    recent.recordOpen(JOE, 'P2', at(2));
    const deadline = Date.now() + 10_000;
    while ((await rows()).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await rows(), [`${JANE} P1 1`, `${JOE} P2 2`]);
    await loop.stop();
  });

  it("answers everyone's list when a person opened an invoice and was removed in the same second", async () => {
    const failures: unknown[] = [];
    const recent = createRecentInvoices(database.db, { log: (error) => failures.push(error) });
    await database.db.execute(sql`insert into invoices (parcel_code, sha256, size, uploaded_by, format)
      values ('P2', ${'0'.repeat(64)}, 1, 'test', 'pdf') on conflict do nothing`);
    recent.recordOpen(JANE, 'P1', at(1));
    recent.recordOpen(JOE, 'P2', at(1));
    // Jane's row goes before her open is written: her open has no row left to belong to.
    await database.db.execute(sql`delete from users where email = ${JANE}`);
    const list = await recent.list(JOE);
    assert.deepEqual(
      list.map((invoice) => invoice.parcelCode),
      ['P2'],
    );
    assert.deepEqual(await rows(), [`${JOE} P2 1`], 'the removed person’s open is dropped, the others written');
    assert.deepEqual(failures, []);
    recent.recordOpen(JOE, 'P1', at(2));
    await recent.flush();
    assert.equal(await recent.countFor(JOE), 2, 'later writes are not held up by the removed person’s open');
    await recent.close();
  });

  it('answers the list from what is written when the write of the last opens fails', async () => {
    const failures: unknown[] = [];
    const recent = createRecentInvoices(database.db, { log: (error) => failures.push(error) });
    await database.db.execute(sql`insert into invoices (parcel_code, sha256, size, uploaded_by, format)
      values ('P2', ${'0'.repeat(64)}, 1, 'test', 'pdf') on conflict do nothing`);
    recent.recordOpen(JOE, 'P2', at(1));
    await recent.flush();
    recent.recordOpen(JOE, 'P3', at(2));
    await database.db.execute(sql`alter table users rename to users_away`);
    try {
      assert.deepEqual(
        (await recent.list(JOE)).map((invoice) => invoice.parcelCode),
        ['P2'],
      );
    } finally {
      await database.db.execute(sql`alter table users_away rename to users`);
    }
    assert.equal(failures.length, 1, 'the failed write is logged');
    assert.equal(await recent.countFor(JOE), 2, 'and the open it held is written by the next');
    await recent.close();
  });

  it('writes what is pending when it closes', async () => {
    const recent = createRecentInvoices(database.db);
    recent.recordOpen(JANE, 'P9', at(9));
    await recent.close();
    assert.deepEqual(await rows(), [`${JANE} P9 9`]);
  });
});
