import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { distinctAccounts, hasValidIbanChecksum, maskedAccount } from './iban.ts';

describe('IBANs', () => {
  it('checks the mod-97 digits and the country length', () => {
    assert.equal(hasValidIbanChecksum('DE02120300000000202051'), true);
    assert.equal(hasValidIbanChecksum('GB33BUKB20201555555555'), true);
    assert.equal(hasValidIbanChecksum('NO9386011117947'), true);
    assert.equal(hasValidIbanChecksum('DE03120300000000202051'), false, 'wrong check digits');
    assert.equal(hasValidIbanChecksum('DE0212030000000020205'), false, 'one short for Germany');
    assert.equal(hasValidIbanChecksum('ZZ02120300000000202051'), false, 'no such country');
  });

  it('keeps each account once however it is written, and masks all but the last four', () => {
    assert.deepEqual(distinctAccounts(['DE02 1203 0000 0000 2020 51', null, 'de02120300000000202051', 'X1']), [
      'DE02 1203 0000 0000 2020 51',
      'X1',
    ]);
    assert.equal(maskedAccount('DE02 1203 0000 0000 2020 51'), '…2051');
  });
});
