import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountsIn, sameAccount, sameAccounts } from './visible-accounts.ts';

const DE = 'DE02120300000000202051';
const GB = 'GB33BUKB20201555555555';

describe('the accounts a page of text shows', () => {
  it('finds IBANs grouped or not, beside the words around them, and only those whose mod-97 check holds', () => {
    const text = [
      'Rechnung Nr. 471102 vom 15.11.2024  USt.-Id.-Nr.: DE123456789',
      'Bitte überweisen Sie auf IBAN: DE02 1203 0000 0000 2020 51 BIC BYLADEM1001',
      'or to iban gb33bukb20201555555555.',
      'Ref AB12 NO93 8601 1117 947 and a false one DE03 1203 0000 0000 2020 51',
    ].join('\n');
    assert.deepEqual(accountsIn(text), [DE, GB, 'NO9386011117947']);
    assert.deepEqual(accountsIn(`${DE} DE02 1203 0000 0000 2020 51`), [DE]);
    assert.deepEqual(accountsIn('Summe 529,87 EUR, fällig 15.12.2024, Kunde GE2020211'), []);
  });

  it('finds the same IBAN however it is spaced, broken across lines, or cut into table cells', () => {
    const layouts = [
      'IBAN DE02  1203   0000 0000\t2020 51',
      'IBAN DE02 1203 0000\n0000 2020 51\nBIC BYLADEM1001',
      'IBAN\nDE02\n1203\n0000\n0000\n2020\n51',
      'Bank | IBAN: | DE02 1203 | 0000 0000 | 2020 51 | Sparkasse',
      'I B A N : D E 0 2 1 2 0 3 0 0 0 0 0 0 0 0 2 0 2 0 5 1',
      'IBAN:DE02120300000000202051,',
      'IBAN DE02\u00a01203\u00a00000\u00a00000\u00a02020\u00a051',
    ];
    for (const layout of layouts) assert.deepEqual(accountsIn(layout), [DE], JSON.stringify(layout));
  });

  it('does not make an IBAN of the words after one, nor of an account that ends inside a word', () => {
    assert.deepEqual(accountsIn('IBAN DE02 1203 0000 0000 2020 51 4711 Zahlbar'), [DE]);
    assert.deepEqual(accountsIn('DE02 1203 0000 0000 2020 517'), []);
  });

  it('finds a UK sort code with its account number, in either order and across lines', () => {
    assert.deepEqual(accountsIn('Sort code: 20-20-15  Account number: 55555555'), [
      'SORT CODE 202015 ACCOUNT 55555555',
    ]);
    assert.deepEqual(accountsIn('Account No.\n5555 5555\nSort Code\n20 20 15'), ['SORT CODE 202015 ACCOUNT 55555555']);
    // Printed beside the IBAN that holds them, they are that IBAN, not a second account.
    assert.deepEqual(accountsIn(`IBAN ${GB}\nSort code 20-20-15 Account 55555555`), [GB]);
  });

  it('finds an account number labelled as one where a bank is named, with the bank code beside it', () => {
    assert.deepEqual(accountsIn('Bank: Chase · SWIFT: CHASUS33 · Account No.: 123 456 789'), [
      'ACCOUNT CHASUS33 123456789',
    ]);
    assert.deepEqual(accountsIn('Bankverbindung: Kontonummer 0532013000, BLZ 370 400 44'), [
      'ACCOUNT 37040044 0532013000',
    ]);
    assert.deepEqual(accountsIn('Banque Populaire — N° de compte : 12345 67890'), ['ACCOUNT 1234567890']);
  });

  it('does not take a customer number, or an account number with no bank named near it, for a bank account', () => {
    assert.deepEqual(accountsIn('Customer account no. 4711002 · Bank: Chase'), []);
    assert.deepEqual(accountsIn('Account number 88123456 (quote it with every order)'), []);
  });
});

describe('one account however it is written', () => {
  it('matches an account number with the IBAN that holds it, and tells different numbers or banks apart', () => {
    assert.equal(sameAccount('SORT CODE 202015 ACCOUNT 55555555', GB), true);
    assert.equal(sameAccount('SORT CODE 202015 ACCOUNT 55555555', 'GB33 BUKB 2020 1555 5555 55'), true);
    assert.equal(sameAccount('ACCOUNT 37040044 0532013000', 'DE89370400440532013000'), true);
    assert.equal(sameAccount('ACCOUNT 0532013000', 'ACCOUNT 37040044 0532013000'), true);
    assert.equal(sameAccount('ACCOUNT CHASUS33 123456789', 'ACCOUNT BOFAUS3N 123456789'), false);
    assert.equal(sameAccount('ACCOUNT 1234567', 'ACCOUNT 12345678'), false);
    assert.equal(sameAccount(DE, GB), false);
    assert.equal(sameAccounts([DE, 'SORT CODE 202015 ACCOUNT 55555555'], [GB, 'de02 1203 0000 0000 2020 51']), true);
    assert.equal(sameAccounts([DE], [DE, GB]), false);
  });
});
