import type { BlobStore } from '../invoices/blob-store.ts';
import { renderDemoInvoicePdf } from '../invoices/demo-invoice-pdf.ts';
import { requirePdfHead } from '../invoices/ingest.ts';
import type { InvoicesRepository, RecordOutcome } from '../repositories/invoices-repository.ts';

export const DEMO_PARCEL_CODES = ['DEMO000001', 'DEMO000002', 'DEMO000003'] as const;

const MAX_DEMO_BYTES = 5 * 1024 * 1024;

/**
 * Idempotent: a code that already has an invoice is left alone (it may have been replaced on purpose
 * through the portal), so a restart never undoes someone's upload and never grows the version history.
 */
export async function seedDemoInvoices(blobStore: BlobStore, invoicesRepository: InvoicesRepository) {
  const outcomes: Record<string, RecordOutcome> = {};
  for (const parcelCode of DEMO_PARCEL_CODES) {
    if (await invoicesRepository.findByParcelCode(parcelCode)) {
      outcomes[parcelCode] = 'unchanged';
      continue;
    }
    const pdf = await renderDemoInvoicePdf(parcelCode);
    const blob = await blobStore.put(pdf, { maxBytes: MAX_DEMO_BYTES, validateHead: requirePdfHead });
    outcomes[parcelCode] = await invoicesRepository.recordVersion({ parcelCode, uploadedBy: 'demo seed', ...blob });
  }
  return outcomes;
}
