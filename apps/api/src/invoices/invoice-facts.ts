import type { InvoiceFacts } from '@portal/contract';
import type { InvoiceRow } from './repository.ts';

/** GET /invoices/:parcelCode's answer, from the current row. */
export function invoiceFactsOf(invoice: InvoiceRow): InvoiceFacts {
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
    lineCount: facts?.lineCount ?? null,
    uploadedAt: invoice.uploadedAt.toISOString(),
    hasXml: invoice.xmlSha256 !== null,
    pdfIsRendering: invoice.renderingSha256 !== null,
    bankDetailsChangedAt: invoice.bankDetailsChangedAt?.toISOString() ?? null,
    amountChangedAt: invoice.amountChangedAt?.toISOString() ?? null,
  };
}
