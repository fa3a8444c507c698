import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountSetOf, normalAmount, type StoredInvoiceFacts } from './stored-facts.ts';
import { storedFacts } from '../../../test/helpers/stored-facts.ts';

const facts = (overrides: Partial<StoredInvoiceFacts> = {}) => storedFacts('DE02 1203 0000 0000 2020 51', overrides);

describe('accountSetOf', () => {
  it('compares the set: order, spacing, case and repeats do not count', () => {
    const one = facts({ paymentAccounts: ['DE02 1203 0000 0000 2020 51', 'GB33BUKB20201555555555'] });
    const other = facts({
      paymentAccounts: ['gb33 bukb 2020 1555 5555 55', 'DE02120300000000202051', 'DE02120300000000202051'],
    });
    assert.deepEqual(accountSetOf(one), accountSetOf(other));
    assert.deepEqual(accountSetOf(one), ['DE02120300000000202051', 'GB33BUKB20201555555555']);
  });

  it('reads a version stored before every account was read from its one iban', () => {
    const { paymentAccounts: _, ...older } = facts();
    assert.deepEqual(accountSetOf(older), ['DE02120300000000202051']);
    assert.deepEqual(accountSetOf({ ...older, iban: null }), []);
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
