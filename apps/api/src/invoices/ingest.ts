import type { Readable } from 'node:stream';
import { parcelCodeSchema, type InvoiceStored } from '@portal/contract';
import type { AuditRepository } from '../audit/repository.ts';
import { DomainError } from '../domain-error.ts';
import { BlobTooLargeError, type BlobStore } from './blob-store.ts';
import type { InvoicesRepository } from './repository.ts';

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/** Why an upload is not stored, for the audit log: bad-code, not-pdf, too-large or interrupted. */
type IngestRefusalReason = 'bad-code' | 'not-pdf' | 'too-large' | 'interrupted';

const refusal = (reason: IngestRefusalReason, message: string) =>
  new DomainError(reason === 'too-large' ? 'too-large' : 'invalid', message, reason);

export interface IngestServices {
  blobStore: BlobStore;
  invoicesRepository: InvoicesRepository;
  auditRepository: AuditRepository;
  maxBytes: number;
}

export interface IngestInput {
  parcelCode: string;
  /** Owned by the caller: it may be left partly read after a refusal, and the caller closes it. */
  body: Readable | Uint8Array;
  /** Content-Length when the sender declared one: an oversized upload is refused before it is read. */
  declaredSize?: number;
  /** The admin's e-mail, 'service' for the ingestion token, or the CLI's operator label. */
  uploadedBy: string;
}

/** Given to the blob store, which calls it with the first bytes before keeping anything. */
export function requirePdfHead(head: Uint8Array): void {
  const isPdf = head.length >= PDF_MAGIC.length && PDF_MAGIC.equals(head.subarray(0, PDF_MAGIC.length));
  if (!isPdf) throw refusal('not-pdf', 'The body is not a PDF file (it must start with "%PDF-").');
}

/**
 * The one way an invoice gets in, shared by PUT /invoices/:parcelCode and the CLI: bytes first (the
 * store writes atomically and never deletes), then the row, so a row can only ever name bytes that exist.
 */
export async function ingestInvoice(services: IngestServices, input: IngestInput): Promise<InvoiceStored> {
  const { parcelCode, uploadedBy } = input;
  try {
    if (!parcelCodeSchema.safeParse(parcelCode).success) {
      throw refusal('bad-code', 'A parcel code is 1 to 64 letters, digits, "-" or "_".');
    }
    if (input.declaredSize !== undefined && input.declaredSize > services.maxBytes) throw tooLarge(services.maxBytes);
    const blob = await storeBytes(services, input.body);
    const status = await services.invoicesRepository.recordVersion({ parcelCode, uploadedBy, ...blob });
    await services.auditRepository.record({
      actor: uploadedBy,
      action: 'invoice.ingest',
      target: parcelCode,
      outcome: 'ok',
      detail: `${status} sha256=${blob.sha256} size=${blob.size}`,
    });
    return { parcelCode, sha256: blob.sha256, size: blob.size, status };
  } catch (error) {
    if (error instanceof DomainError) {
      await services.auditRepository.record({
        actor: uploadedBy,
        action: 'invoice.ingest',
        // A refused code may be anything a client sent; keep the log readable and bounded.
        target: parcelCode.slice(0, 80),
        outcome: 'refused',
        detail: `${error.statusCode} ${error.reason}: ${error.message}`,
      });
    }
    throw error;
  }
}

const tooLarge = (maxBytes: number) =>
  refusal('too-large', `The invoice is larger than the limit of ${maxBytes} bytes.`);

async function storeBytes(services: IngestServices, body: Readable | Uint8Array) {
  // A body that fails (client gone, truncated upload) is the sender's problem, not a server error.
  let sourceError: Error | undefined;
  const onSourceError = (error: Error) => (sourceError = error);
  if (!(body instanceof Uint8Array)) body.once('error', onSourceError);
  try {
    // Not destroyed when we stop reading early: an HTTP request must stay open for its 400/413 answer.
    const chunks = body instanceof Uint8Array ? body : body.iterator({ destroyOnReturn: false });
    return await services.blobStore.put(chunks, { maxBytes: services.maxBytes, validateHead: requirePdfHead });
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw tooLarge(services.maxBytes);
    if (error instanceof DomainError) throw error;
    // We never destroy the body ourselves, so a destroyed, unfinished body was cut off by its sender.
    const cutOff = sourceError || (!(body instanceof Uint8Array) && body.destroyed && !body.readableEnded);
    if (cutOff) {
      const cause = sourceError ? ` (${sourceError.message})` : '';
      throw refusal('interrupted', `The upload was interrupted before the whole file arrived${cause}.`);
    }
    throw error;
  } finally {
    if (!(body instanceof Uint8Array)) body.off('error', onSourceError);
  }
}
