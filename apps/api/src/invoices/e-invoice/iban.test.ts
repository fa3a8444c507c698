import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { distinctAccounts, hasValidIbanChecksum, ibansIn, maskedAccount } from './iban.ts';

describe('IBANs', () => {
  it('checks the mod-97 digits and the country length', () => {
    assert.equal(hasValidIbanChecksum('DE02120300000000202051'), true);
    assert.equal(hasValidIbanChecksum('GB33BUKB20201555555555'), true);
    assert.equal(hasValidIbanChecksum('NO9386011117947'), true);
    assert.equal(hasValidIbanChecksum('DE03120300000000202051'), false, 'wrong check digits');
    assert.equal(hasValidIbanChecksum('DE0212030000000020205'), false, 'one short for Germany');
    assert.equal(hasValidIbanChecksum('ZZ02120300000000202051'), false, 'no such country');
  });

  it('finds IBANs in page text, grouped or not, beside the words around them', () => {
    const text = [
      'Rechnung Nr. 471102 vom 15.11.2024  USt.-Id.-Nr.: DE123456789',
      'Bitte überweisen Sie auf IBAN: DE02 1203 0000 0000 2020 51 BIC BYLADEM1001',
      'or to iban gb33bukb20201555555555.',
      'Ref AB12 NO93 8601 1117 947 and a false one DE03 1203 0000 0000 2020 51',
    ].join('\n');
    assert.deepEqual(ibansIn(text), ['DE02120300000000202051', 'GB33BUKB20201555555555', 'NO9386011117947']);
    assert.deepEqual(ibansIn('DE02120300000000202051 DE02 1203 0000 0000 2020 51'), ['DE02120300000000202051']);
    assert.deepEqual(ibansIn('Summe 529,87 EUR, fällig 15.12.2024, Kunde GE2020211'), []);
  });

  it('keeps each account once however it is written, and masks all but the last four', () => {
    assert.deepEqual(distinctAccounts(['DE02 1203 0000 0000 2020 51', null, 'de02120300000000202051', 'X1']), [
      'DE02 1203 0000 0000 2020 51',
      'X1',
    ]);
    assert.equal(maskedAccount('DE02 1203 0000 0000 2020 51'), '…2051');
  });
});
