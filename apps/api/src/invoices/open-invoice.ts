import type { InvoiceFacts } from '@portal/contract';
import { AMOUNT_KINDS, BANK_DETAILS_KINDS } from './change-guard.ts';
import { paymentAccountsOf } from './e-invoice/stored-facts.ts';
import { warningOf, type InvoiceWarningRow } from './warnings-repository.ts';
import { DomainError } from '../domain-error.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { createInvoiceReader, type InvoiceBody } from './reader.ts';
import type { InvoiceRow, InvoicesRepository } from './repository.ts';

export const NO_INVOICE_MESSAGE = 'No invoice was found for this parcel code.';
export const NO_XML_MESSAGE = 'This invoice is a plain PDF: it has no e-invoice XML.';

/** The PDF the invoice screen shows: the original, or for an XML-only invoice the rendering made of it. */
export const pdfBlobOf = (invoice: InvoiceRow): { sha256: string; size: number; body?: undefined } => ({
  sha256: invoice.renderingSha256 ?? invoice.sha256,
  size: invoice.renderingSize ?? invoice.size,
});

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
    profile: facts?.profile ?? null,
    profileName: facts?.profileName ?? null,
    invoiceNumber: facts?.invoiceNumber ?? null,
    typeCode: facts?.typeCode ?? null,
    issueDate: facts?.issueDate ?? null,
    dueDate: facts?.dueDate ?? null,
    currency: facts?.currency ?? null,
    sellerName: facts?.sellerName ?? null,
    sellerVatId: facts?.sellerVatId ?? null,
    buyerName: facts?.buyerName ?? null,
    buyerReference: facts?.buyerReference ?? null,
    totalNet: facts?.totalNet ?? null,
    totalTax: facts?.totalTax ?? null,
    totalGross: facts?.totalGross ?? null,
    amountDue: facts?.amountDue ?? null,
    iban: facts?.iban ?? null,
    paymentAccounts: facts ? paymentAccountsOf(facts) : null,
    lineCount: facts?.lineCount ?? null,
    uploadedAt: invoice.uploadedAt.toISOString(),
    hasXml: invoice.xmlSha256 !== null,
    pdfIsRendering: invoice.renderingSha256 !== null,
    bankDetailsChangedAt: latestOf(pending, BANK_DETAILS_KINDS),
    amountChangedAt: latestOf(pending, AMOUNT_KINDS),
    warnings: pending.map(warningOf),
  };
}

// Invoices are typically tens to hundreds of KB: 64 MB keeps the hot ones, larger files always stream.
const READER_LIMITS = { maxCacheBytes: 64 * 1024 * 1024, maxEntryBytes: 2 * 1024 * 1024 };

/** The current row for the code, or the not-found refusal: what both ways of delivering the bytes start from. */
export async function findCurrentInvoice(invoicesRepository: InvoicesRepository, parcelCode: string) {
  const invoice = await invoicesRepository.findCurrent(parcelCode);
  if (!invoice) throw new DomainError('not-found', NO_INVOICE_MESSAGE);
  return invoice;
}

/**
 * The one way an invoice is read, beside `ingestInvoice`, the one way it gets in: the current row for the
 * code, then its bytes (from memory when hot).
 */
export function createOpenInvoice(deps: { invoicesRepository: InvoicesRepository; blobStore: BlobStore }) {
  const reader = createInvoiceReader(deps.blobStore, READER_LIMITS);
  return async function openInvoice(parcelCode: string): Promise<InvoiceBody & { sha256: string }> {
    const invoice = await findCurrentInvoice(deps.invoicesRepository, parcelCode);
    const pdf = pdfBlobOf(invoice);
    const blob = await reader.open(pdf.sha256, pdf.size);
    // The row is written only after its bytes, and bytes are never deleted: this is a broken store.
    if (!blob) throw new Error(`invoice ${parcelCode} names blob ${pdf.sha256}, which is missing`);
    return { ...blob, sha256: pdf.sha256 };
  };
}

/** The e-invoice XML of the current version (for a hybrid, the attachment; else the original). */
export function createOpenInvoiceXml(deps: { invoicesRepository: InvoicesRepository; blobStore: BlobStore }) {
  return async function openInvoiceXml(
    parcelCode: string,
  ): Promise<{ size: number; body: InvoiceBody['body']; sha256: string }> {
    const invoice = await findCurrentInvoice(deps.invoicesRepository, parcelCode);
    if (!invoice.xmlSha256) throw new DomainError('not-found', NO_XML_MESSAGE, 'no-xml');
    const blob = await deps.blobStore.open(invoice.xmlSha256);
    if (!blob) throw new Error(`invoice ${parcelCode} names XML blob ${invoice.xmlSha256}, which is missing`);
    return { size: blob.size, body: blob.stream, sha256: invoice.xmlSha256 };
  };
}
