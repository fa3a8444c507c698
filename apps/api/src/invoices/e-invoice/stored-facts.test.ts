import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeMarkers, normalAmount, type StoredInvoiceFacts } from './stored-facts.ts';

const facts = (overrides: Partial<StoredInvoiceFacts> = {}): StoredInvoiceFacts => ({
  syntax: 'cii',
  profileName: null,
  profile: null,
  invoiceNumber: 'INV-1',
  typeCode: '380',
  issueDate: '2025-01-01',
  dueDate: null,
  currency: 'EUR',
  sellerName: 'Seller',
  sellerVatId: null,
  buyerName: 'Buyer',
  buyerReference: null,
  totalNet: '100.00',
  totalTax: '19.00',
  totalGross: '119.00',
  amountDue: '119.00',
  iban: 'DE02 1203 0000 0000 2020 51',
  lineCount: 1,
  ...overrides,
});

const earlier = new Date('2025-01-01T10:00:00Z');
const now = new Date('2025-02-01T10:00:00Z');
const unmarked = { bankDetailsChangedAt: null, amountChangedAt: null };

describe('changeMarkers', () => {
  it('marks nothing for a first version', () => {
    assert.deepEqual(changeMarkers(undefined, facts(), now), unmarked);
  });

  it('marks a new payment account, however it is spaced or cased', () => {
    const previous = { facts: facts(), ...unmarked };
    assert.deepEqual(changeMarkers(previous, facts({ iban: 'de02120300000000202051' }), now), unmarked);
    assert.deepEqual(changeMarkers(previous, facts({ iban: 'GB33BUKB20201555555555' }), now), {
      bankDetailsChangedAt: now,
      amountChangedAt: null,
    });
  });

  it('marks a new amount due or currency, not the same amount written differently', () => {
    const previous = { facts: facts(), ...unmarked };
    assert.deepEqual(changeMarkers(previous, facts({ amountDue: '119' }), now), unmarked);
    assert.deepEqual(changeMarkers(previous, facts({ amountDue: '191.00' }), now).amountChangedAt, now);
    assert.deepEqual(changeMarkers(previous, facts({ currency: 'GBP' }), now).amountChangedAt, now);
  });

  it('carries a mark on while the changed value stays', () => {
    const previous = { facts: facts(), bankDetailsChangedAt: earlier, amountChangedAt: earlier };
    assert.deepEqual(changeMarkers(previous, facts({ invoiceNumber: 'INV-1-R2' }), now), {
      bankDetailsChangedAt: earlier,
      amountChangedAt: earlier,
    });
  });

  it('compares only terms both versions carry', () => {
    const previous = { facts: facts(), bankDetailsChangedAt: earlier, amountChangedAt: null };
    assert.deepEqual(changeMarkers(previous, facts({ iban: null, amountDue: null }), now), {
      bankDetailsChangedAt: earlier,
      amountChangedAt: null,
    });
    assert.deepEqual(changeMarkers(previous, null, now), unmarked);
  });
});

describe('normalAmount', () => {
  it('reads decimals as written into one form', () => {
    assert.equal(normalAmount('0100.500'), '100.5');
    assert.equal(normalAmount('+7'), '7');
    assert.equal(normalAmount('-0.00'), '0');
    assert.equal(normalAmount('-233.470'), '-233.47');
  });
});
