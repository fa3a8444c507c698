import type { InvoiceFacts } from '@portal/contract';
import { INVOICE_FACT_TERM_NAMES, type InvoiceFactTerm } from '@portal/contract/invoice-terms';
import { AMOUNT_KINDS, BANK_DETAILS_KINDS } from './change-guard.ts';
import { paymentAccountsOf, type StoredInvoiceFacts } from './e-invoice/stored-facts.ts';
import type { InvoiceRow } from './repository.ts';
import { warningOf, type InvoiceWarningRow } from './warnings-repository.ts';

/** The contract's text terms of a stored version; all null for a plain PDF. */
const termsOf = (facts: StoredInvoiceFacts | null) =>
  Object.fromEntries(INVOICE_FACT_TERM_NAMES.map((name) => [name, facts?.[name] ?? null])) as {
    [Name in InvoiceFactTerm]: string | null;
  };

/** The latest of these warnings, as the two older marks report it. */
function latestOf(pending: InvoiceWarningRow[], kinds: readonly InvoiceWarningRow['kind'][]): string | null {
  const raised = pending.filter((warning) => kinds.includes(warning.kind)).map((warning) => warning.raisedAt);
  return raised.length === 0 ? null : new Date(Math.max(...raised.map(Number))).toISOString();
}

/** GET /invoices/:parcelCode's answer, from the current row and its unacknowledged warnings. */
export function invoiceFactsOf(invoice: InvoiceRow, pending: InvoiceWarningRow[]): InvoiceFacts {
  const facts = invoice.facts;
  return {
    parcelCode: invoice.parcelCode,
    format: invoice.format,
    syntax: facts?.syntax ?? null,
    ...termsOf(facts),
    paymentAccounts: facts ? paymentAccountsOf(facts) : null,
    lineCount: facts?.lineCount ?? null,
    validation: facts?.validation ?? null,
    uploadedAt: invoice.uploadedAt.toISOString(),
    hasXml: invoice.xmlSha256 !== null,
    pdfIsRendering: invoice.renderingSha256 !== null,
    bankDetailsChangedAt: latestOf(pending, BANK_DETAILS_KINDS),
    amountChangedAt: latestOf(pending, AMOUNT_KINDS),
    warnings: pending.map(warningOf),
  };
}
