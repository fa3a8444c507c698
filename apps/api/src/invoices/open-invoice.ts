import { DomainError } from '../domain-error.ts';
import type { BlobStore } from './blob-store.ts';
import { createInvoiceReader, type InvoiceBody } from './reader.ts';
import type { InvoicesRepository } from './repository.ts';

export const NO_INVOICE_MESSAGE = 'No invoice was found for this parcel code.';

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
    const blob = await reader.open(invoice.sha256, invoice.size);
    // The row is written only after its bytes, and bytes are never deleted: this is a broken store.
    if (!blob) throw new Error(`invoice ${parcelCode} names blob ${invoice.sha256}, which is missing`);
    return { ...blob, sha256: invoice.sha256 };
  };
}
