import type { StoredInvoiceFacts } from '../../src/invoices/e-invoice/stored-facts.ts';

/** The facts of a one-line CII invoice of 119.00 EUR paid to `account`, with the terms a test sets. */
export function storedFacts(account: string, overrides: Partial<StoredInvoiceFacts> = {}): StoredInvoiceFacts {
  return {
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
    iban: account,
    paymentAccounts: [account],
    lineCount: 1,
    ...overrides,
  };
}
