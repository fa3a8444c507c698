import type { Readable } from 'node:stream';
import { parcelCodeSchema, type AuditAction, type InvoiceStored } from '@portal/contract';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { DomainError } from '../domain-error.ts';
import type { BlobStore, StoredBlob } from '../blob-store/blob-store.ts';
import {
  InvoiceRefusedError,
  startsAsPdf,
  startsAsXml,
  type ReadInvoice,
  type ReadInvoiceLimits,
} from './e-invoice/read-invoice.ts';
import { ReadingBudgetError } from './e-invoice/reading-budget.ts';
import { renderEInvoicePdf } from './e-invoice/render-pdf.ts';
import type { StoredInvoiceFacts } from './e-invoice/stored-facts.ts';
import type { InvoicesRepository, RecordedVersion, RecordedWarning } from './repository.ts';
import type { IngestSlots } from './ingest-slots.ts';

/**
 * Why an upload is not stored, for the audit log: bad-code, not-pdf (nor XML), not-invoice, too-large,
 * interrupted, or over-budget (reading it would cost more memory or time than one file may have). A busy
 * instance refuses with ingest-slots.ts's own reason.
 */
type IngestRefusalReason =
  'bad-code' | 'not-pdf' | 'not-invoice' | 'too-large' | 'interrupted' | 'over-budget' | 'invalid-e-invoice';

const NOT_PDF_NOR_XML =
  'The body is neither a PDF (it must start with "%PDF-") nor an XML e-invoice (it must start with "<").';

const refusal = (reason: IngestRefusalReason, message: string) =>
  new DomainError(reason === 'too-large' ? 'too-large' : 'invalid', message, reason);

export interface IngestDeps {
  blobStore: BlobStore;
  invoicesRepository: InvoicesRepository;
  audit: Pick<AuditTrail, 'required'>;
  maxBytes: number;
  /** Reads untrusted bytes under a memory and time budget: the reader pool (e-invoice/reader-pool.ts). */
  readInvoice: (bytes: Uint8Array, limits: ReadInvoiceLimits) => Promise<ReadInvoice>;
  ingestSlots: IngestSlots;
  /**
   * What an e-invoice with a fatal EN 16931 finding gets: `accept` keeps no report, `flag` (the default)
   * stores the report with the facts, `refuse` answers 400 with the fatal findings and stores nothing.
   */
  invalidEInvoices?: InvalidEInvoicePolicy;
  /** Told of every e-invoice with a fatal finding and what the policy did with it: the metric counts them. */
  onInvalidEInvoice?: (outcome: 'flagged' | 'refused' | 'accepted') => void;
}

export type InvalidEInvoicePolicy = 'accept' | 'flag' | 'refuse';

export interface IngestInput {
  parcelCode: string;
  /** Owned by the caller: it may be left partly read after a refusal, and the caller closes it. */
  body: Readable | Uint8Array;
  /** Content-Length when the sender declared one: an oversized upload is refused before it is read. */
  declaredSize?: number;
  /** The admin's e-mail, 'service' for the ingestion token, or the CLI's operator label. */
  uploadedBy: string;
}

/** The first bytes must begin a PDF or an XML document; white space (or a byte-order mark) alone is undecided. */
export function requireInvoiceHead(head: Uint8Array): void {
  const undecided = head.every((byte) => [0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf, 0xfe, 0xff].includes(byte));
  if (head.length > 0 && (startsAsPdf(head) || startsAsXml(head) || undecided)) return;
  throw refusal('not-pdf', NOT_PDF_NOR_XML);
}

/**
 * The one way an invoice gets in, shared by PUT /invoices/:parcelCode and the CLI. The body is read whole
 * (within the size limit) and read as an invoice: a PDF, plain or with its e-invoice XML attached, or an
 * XML-only CII or UBL invoice, which also gets a PDF rendering. Then bytes first (the store writes
 * atomically and never deletes: the original, the attached XML, the rendering), then the row with the facts,
 * so a row can only ever name bytes that exist.
 */
export async function ingestInvoice(deps: IngestDeps, input: IngestInput): Promise<InvoiceStored> {
  const { parcelCode, uploadedBy } = input;
  let giveBackSlot: (() => void) | undefined;
  try {
    giveBackSlot = deps.ingestSlots.take();
    if (!parcelCodeSchema.safeParse(parcelCode).success) {
      throw refusal('bad-code', 'A parcel code is 1 to 64 letters, digits, "-" or "_".');
    }
    if (input.declaredSize !== undefined && input.declaredSize > deps.maxBytes) throw tooLarge(deps.maxBytes);
    const bytes = await readBody(deps, input.body);
    const read = withValidationPolicy(deps, await readAsInvoice(deps, bytes));
    const stored = await storeBlobs(deps, parcelCode, bytes, read);
    const recorded = await deps.invoicesRepository.recordVersion(
      { parcelCode, uploadedBy, ...stored },
      { visibleAccounts: read.visibleAccounts },
    );
    await auditIngest(deps, { parcelCode, uploadedBy, read, recorded, blob: stored });
    return {
      parcelCode,
      sha256: stored.sha256,
      size: stored.size,
      status: recorded.status,
      format: read.format,
      warnings: read.warnings,
    };
  } catch (error) {
    if (error instanceof DomainError) {
      await deps.audit.required({
        actor: uploadedBy,
        action: 'invoice.ingest',
        // A refused code may be anything a client sent; keep the log readable and bounded.
        target: parcelCode.slice(0, 80),
        outcome: 'refused',
        detail: `${error.statusCode} ${error.reason}: ${error.message}`,
      });
    }
    throw error;
  } finally {
    giveBackSlot?.();
  }
}

/** Applies the operator's policy to the reader's report: refuses an invalid e-invoice, or drops the report. */
function withValidationPolicy(deps: IngestDeps, read: ReadInvoice): ReadInvoice {
  const policy = deps.invalidEInvoices ?? 'flag';
  const invalid = read.validation?.status === 'invalid';
  if (invalid) deps.onInvalidEInvoice?.(INVALID_OUTCOME[policy]);
  if (policy === 'accept') return { ...read, validation: null };
  if (policy === 'refuse' && read.validation?.status === 'invalid') {
    const fatal = read.validation.findings.filter((finding) => finding.flag === 'fatal');
    const listed = fatal
      .slice(0, MAX_LISTED_FINDINGS)
      .map((finding) => `${finding.rule}${finding.at ? ` (${finding.at})` : ''}: ${finding.message}`);
    const more = fatal.length > MAX_LISTED_FINDINGS ? ` … and ${fatal.length - MAX_LISTED_FINDINGS} more.` : '';
    throw refusal(
      'invalid-e-invoice',
      `The e-invoice breaks ${fatal.length} of the EN 16931 business rules and is not taken: ${listed.join(' ')}${more}`,
    );
  }
  return read;
}

const INVALID_OUTCOME = { accept: 'accepted', flag: 'flagged', refuse: 'refused' } as const;

/** The refusal names this many findings; the sender's own validator lists them all. */
const MAX_LISTED_FINDINGS = 10;

const tooLarge = (maxBytes: number) =>
  refusal('too-large', `The invoice is larger than the limit of ${maxBytes} bytes.`);

/** The body, whole: reading an invoice needs all of it, and the limit bounds what is held. */
async function readBody(deps: IngestDeps, body: Readable | Uint8Array): Promise<Buffer> {
  if (body instanceof Uint8Array) return collect([body], deps.maxBytes);
  // A body that fails (client gone, truncated upload) is the sender's problem, not a server error.
  let sourceError: Error | undefined;
  const onSourceError = (error: Error) => (sourceError = error);
  body.once('error', onSourceError);
  try {
    // Not destroyed when we stop reading early: an HTTP request must stay open for its 400/413 answer.
    return await collect(body.iterator({ destroyOnReturn: false }), deps.maxBytes);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // We never destroy the body ourselves, so a destroyed, unfinished body was cut off by its sender.
    if (sourceError || (body.destroyed && !body.readableEnded)) {
      const cause = sourceError ? ` (${sourceError.message})` : '';
      throw refusal('interrupted', `The upload was interrupted before the whole file arrived${cause}.`);
    }
    throw error;
  } finally {
    body.off('error', onSourceError);
  }
}

/** Stops at the limit, and at the first bytes when they begin neither a PDF nor XML. */
async function collect(chunks: AsyncIterable<unknown> | Iterable<unknown>, maxBytes: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  let headChecked = false;
  for await (const chunk of chunks) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError('An invoice body must yield bytes');
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (!headChecked && size >= HEAD_BYTES) {
      requireInvoiceHead(Buffer.concat(parts).subarray(0, HEAD_BYTES));
      headChecked = true;
    }
  }
  const bytes = Buffer.concat(parts, size);
  if (!headChecked) requireInvoiceHead(bytes);
  return bytes;
}

/** Enough for `%PDF-`, or for `<` after a byte-order mark and some white space. */
const HEAD_BYTES = 8;

async function readAsInvoice(deps: IngestDeps, bytes: Uint8Array): Promise<ReadInvoice> {
  const { maxBytes } = deps;
  try {
    return await deps.readInvoice(bytes, {
      maxAttachmentBytes: maxBytes,
      // A PDF's object streams hold its dictionaries, a few times smaller than its pages: twice the upload
      // limit is far more than an invoice has, and far less than a bomb's gigabytes.
      maxDecodedBytes: 2 * maxBytes,
      xml: { maxChars: maxBytes, maxDepth: 64, maxElements: 500_000 },
    });
  } catch (error) {
    if (error instanceof ReadingBudgetError) throw refusal('over-budget', error.message);
    if (error instanceof InvoiceRefusedError) {
      throw refusal(
        'not-invoice',
        `The body is not a PDF, and not an XML e-invoice this portal reads: ${error.message}`,
      );
    }
    throw error;
  }
}

export interface StoredInvoiceBlobs extends StoredBlob {
  format: ReadInvoice['format'];
  facts: StoredInvoiceFacts | null;
  xmlSha256: string | null;
  xmlSize: number | null;
  renderingSha256: string | null;
  renderingSize: number | null;
}

/** The original, then what was made from it: the attached XML of a hybrid, the rendering of XML-only. */
async function storeBlobs(
  deps: IngestDeps,
  parcelCode: string,
  bytes: Buffer,
  read: ReadInvoice,
): Promise<StoredInvoiceBlobs> {
  const put = (body: Uint8Array) => deps.blobStore.put(body, { maxBytes: Math.max(deps.maxBytes, body.length) });
  const original = await put(bytes);
  const { content } = read;
  if (!content) {
    return {
      ...original,
      format: 'pdf',
      facts: null,
      xmlSha256: null,
      xmlSize: null,
      renderingSha256: null,
      renderingSize: null,
    };
  }
  const xml = read.format === 'facturx' && read.xml ? await put(read.xml) : original;
  const rendering =
    read.format === 'facturx'
      ? null
      : await put(await renderEInvoicePdf(content, { parcelCode, profileName: read.profileName }));
  return {
    ...original,
    format: read.format,
    facts: {
      ...content.facts,
      syntax: content.syntax,
      profileName: read.profileName,
      ...(read.validation ? { validation: read.validation } : {}),
    },
    xmlSha256: xml.sha256,
    xmlSize: xml.size,
    renderingSha256: rendering?.sha256 ?? null,
    renderingSize: rendering?.size ?? null,
  };
}

/** Each warning the version raised is an audit entry of its own, so a reviewer can search for them. */
async function auditIngest(
  deps: IngestDeps,
  entry: { parcelCode: string; uploadedBy: string; read: ReadInvoice; recorded: RecordedVersion; blob: StoredBlob },
) {
  const { parcelCode, uploadedBy, read, recorded, blob } = entry;
  const warned = read.warnings.length > 0 ? ` warnings=${read.warnings.length}` : '';
  await deps.audit.required({
    actor: uploadedBy,
    action: 'invoice.ingest',
    target: parcelCode,
    outcome: 'ok',
    detail: `${recorded.status} format=${read.format} sha256=${blob.sha256} size=${blob.size}${warned}`,
  });
  for (const warning of recorded.warnings) {
    await deps.audit.required({
      actor: uploadedBy,
      action: WARNING_AUDIT_ACTION[warning.kind],
      target: parcelCode,
      outcome: 'ok',
      detail: `${warning.detail} (warning ${warning.id})`,
    });
  }
}

const WARNING_AUDIT_ACTION: Record<RecordedWarning['kind'], AuditAction> = {
  'bank-details': 'invoice.bank-details-changed',
  amount: 'invoice.amount-changed',
  'e-invoice-removed': 'invoice.e-invoice-removed',
  'visible-account': 'invoice.visible-account-mismatch',
  'visible-text-unread': 'invoice.visible-text-unread',
};
