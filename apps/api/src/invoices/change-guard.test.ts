import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warningsFor, type GuardedVersion } from './change-guard.ts';
import type { StoredInvoiceFacts } from './e-invoice/stored-facts.ts';
import { storedFacts } from '../../test/helpers/stored-facts.ts';

const A = 'DE02120300000000202051';
const B = 'GB33BUKB20201555555555';

const facts = (overrides: Partial<StoredInvoiceFacts> = {}) => storedFacts(A, overrides);
const withAccounts = (...accounts: string[]) => facts({ iban: accounts[0] ?? null, paymentAccounts: accounts });
const eInvoice = (value: StoredInvoiceFacts): GuardedVersion => ({ format: 'ubl', facts: value });
const plainPdf: GuardedVersion = { format: 'pdf', facts: null };

/** The warnings of each version in turn, each compared with all those before it. */
function run(...versions: GuardedVersion[]) {
  const history: GuardedVersion[] = [];
  return versions.map((version) => {
    const raised = warningsFor(history, { ...version, visibleAccounts: null });
    history.unshift(version);
    return raised.map((warning) => `${warning.kind}: ${warning.detail}`);
  });
}

describe('the change guard', () => {
  it('raises nothing for a first version, nor for the same terms written differently', () => {
    assert.deepEqual(
      run(eInvoice(facts()), eInvoice(facts({ amountDue: '119', paymentAccounts: ['de02 1203 0000 0000 2020 51'] }))),
      [[], []],
    );
  });

  it('raises a changed account and a changed amount or currency', () => {
    assert.deepEqual(run(eInvoice(facts()), eInvoice(facts({ ...withAccounts(B), amountDue: '191.00' }))), [
      [],
      ['bank-details: payment account …2051 -> …5555', 'amount: amount due 119.00 EUR -> 191.00 EUR'],
    ]);
    assert.deepEqual(run(eInvoice(facts()), eInvoice(facts({ currency: 'GBP' })))[1], [
      'amount: amount due 119.00 EUR -> 119.00 GBP',
    ]);
  });

  it('cannot be laundered through a version without an account: v1 A, v2 none, v3 B', () => {
    assert.deepEqual(run(eInvoice(withAccounts(A)), eInvoice(withAccounts()), eInvoice(withAccounts(B))), [
      [],
      ['bank-details: payment account …2051 -> none'],
      ['bank-details: payment account …2051 -> …5555'],
    ]);
  });

  it('cannot be laundered through a version without an amount', () => {
    const changes = run(
      eInvoice(facts()),
      eInvoice(facts({ amountDue: null })),
      eInvoice(facts({ amountDue: '9.99' })),
    );
    assert.deepEqual(changes, [
      [],
      ['amount: amount due 119.00 EUR -> none'],
      ['amount: amount due 119.00 EUR -> 9.99 EUR'],
    ]);
  });

  it('raises a plain PDF replacing an e-invoice, and still compares the next e-invoice with the last one', () => {
    assert.deepEqual(run(eInvoice(withAccounts(A)), plainPdf, plainPdf, eInvoice(withAccounts(B))), [
      [],
      ['e-invoice-removed: ubl -> pdf'],
      [],
      ['bank-details: payment account …2051 -> …5555'],
    ]);
  });

  it('compares the set of accounts of every payment means, not the first one', () => {
    assert.deepEqual(
      run(
        eInvoice(withAccounts(A)),
        eInvoice(withAccounts(A, B)),
        eInvoice(withAccounts(B, A)),
        eInvoice(withAccounts(A)),
      ),
      [
        [],
        ['bank-details: payment accounts …2051 -> …2051, …5555'],
        [],
        ['bank-details: payment accounts …5555, …2051 -> …2051'],
      ],
    );
  });

  it('takes a term seen for the first time as no change', () => {
    assert.deepEqual(run(plainPdf, eInvoice(withAccounts()), eInvoice(withAccounts(A))), [[], [], []]);
  });

  it("holds a hybrid's visible IBANs against its XML, and raises text it could not read", () => {
    const hybrid = { format: 'facturx' as const, facts: withAccounts(A) };
    const raise = (visibleAccounts: Parameters<typeof warningsFor>[1]['visibleAccounts']) =>
      warningsFor([], { ...hybrid, visibleAccounts }).map((warning) => `${warning.kind}: ${warning.detail}`);
    assert.deepEqual(raise({ ibans: [A], accounts: [A] }), []);
    assert.deepEqual(raise({ ibans: [A, B], accounts: [A, B] }), [
      'visible-account: shown on the PDF, not in its XML: …5555',
    ]);
    // An account number that is not an IBAN, held whole by the XML's IBAN, is that IBAN; another is not.
    assert.deepEqual(raise({ ibans: [A], accounts: [A, 'ACCOUNT 0000202051'] }), []);
    assert.deepEqual(raise({ ibans: [], accounts: ['SORT CODE 202015 ACCOUNT 55555555'] }), [
      'visible-account: shown on the PDF, not in its XML: …5555',
    ]);
    assert.deepEqual(raise({ unreadable: 'it has 80 pages, more than the 50 read' }), [
      "visible-text-unread: the PDF's text could not be read: it has 80 pages, more than the 50 read",
    ]);
  });

  describe('what a person sees, where no XML is there to compare', () => {
    const pdfShowing = (...accounts: string[]): GuardedVersion => ({
      format: 'pdf',
      facts: null,
      visibleAccounts: { ibans: accounts.filter((account) => /^[A-Z]{2}\d/.test(account)), accounts },
    });
    const unreadablePdf: GuardedVersion = { format: 'pdf', facts: null, visibleAccounts: { unreadable: 'encrypted' } };
    const shown = (...versions: GuardedVersion[]) => {
      const history: GuardedVersion[] = [];
      return versions.map((version) => {
        const raised = warningsFor(history, version);
        history.unshift(version);
        return raised.map((warning) => `${warning.kind}: ${warning.detail}`);
      });
    };

    it('raises a plain PDF replaced by a plain PDF that shows another account, and not one that shows the same', () => {
      assert.deepEqual(shown(pdfShowing(A), pdfShowing(A), pdfShowing(B)), [
        [],
        [],
        ['bank-details: accounts shown …2051 -> …5555'],
      ]);
    });

    it('takes an account number that an IBAN shown before holds whole for that IBAN', () => {
      const uk = 'GB33BUKB20201555555555';
      assert.deepEqual(shown(pdfShowing(uk), pdfShowing('SORT CODE 202015 ACCOUNT 55555555')), [[], []]);
      assert.deepEqual(shown(pdfShowing(uk), pdfShowing('SORT CODE 202015 ACCOUNT 55555556'))[1], [
        'bank-details: accounts shown …5555 -> …5556',
      ]);
    });

    it('cannot be laundered through a scanned page, an unreadable one, or an e-invoice that names no account', () => {
      assert.deepEqual(shown(pdfShowing(A), pdfShowing(), unreadablePdf, pdfShowing(B)), [
        [],
        ['bank-details: accounts shown …2051 -> none'],
        ["visible-text-unread: the PDF's text could not be read: encrypted"],
        ['bank-details: accounts shown …2051 -> …5555'],
      ]);
      const xmlWithout = eInvoice(withAccounts());
      assert.deepEqual(shown(pdfShowing(A), xmlWithout, pdfShowing(B))[2], [
        'e-invoice-removed: ubl -> pdf',
        'bank-details: accounts shown …2051 -> …5555',
      ]);
    });

    it('holds an e-invoice against the plain PDF before it, and a plain PDF against the e-invoice before it', () => {
      assert.deepEqual(shown(pdfShowing(A), eInvoice(withAccounts(B)))[1], [
        'bank-details: accounts shown …2051 -> …5555',
      ]);
      assert.deepEqual(shown(pdfShowing(A), eInvoice(withAccounts(A)))[1], []);
      const hybrid: GuardedVersion = {
        format: 'facturx',
        facts: withAccounts(A),
        visibleAccounts: { ibans: [A], accounts: [A] },
      };
      assert.deepEqual(shown(hybrid, pdfShowing(B))[1], [
        'e-invoice-removed: facturx -> pdf',
        'bank-details: accounts shown …2051 -> …5555',
      ]);
    });

    it('raises nothing for a first plain PDF, whatever it shows or whether it could be read', () => {
      assert.deepEqual(shown(unreadablePdf), [[]]);
      assert.deepEqual(shown(pdfShowing(A)), [[]]);
    });
  });
});
