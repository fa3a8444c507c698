import type { AuditAction, InvoiceFacts, InvoiceHistory } from '@portal/contract';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { DomainError } from '../domain-error.ts';
import type { Metrics } from '../observability/metrics.ts';
import { rateLimited } from '../rate-limits/rate-limited.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import { paymentAccountsOf } from './e-invoice/stored-facts.ts';
import { invoiceFactsOf } from './invoice-facts.ts';
import { createInvoiceReader, type InvoiceBody } from './reader.ts';
import type { InvoiceRow, InvoicesRepository, VersionWithWarnings } from './repository.ts';
import type { InvoiceWarningsRepository } from './warnings-repository.ts';
import { versionValidationOf } from './validation-summary.ts';

export const NO_INVOICE_MESSAGE = 'No invoice was found for this parcel code.';
export const NO_XML_MESSAGE = 'This invoice is a plain PDF: it has no e-invoice XML.';
export const NO_VERSION_MESSAGE = 'This invoice has no such version.';
export const EARLIER_VERSION_MESSAGE =
  'Earlier versions of an invoice are for administrators and finance users who confirmed their passkey.';

/** Why a part was not found: the code has no invoice at all (a guess, or a typo), or its invoice has no XML. */
export const UNKNOWN_PARCEL = 'unknown-parcel';
export const NO_XML = 'no-xml';
export const NO_VERSION = 'no-version';
const EARLIER_VERSION = 'earlier version';

/**
 * What a signed-in person may open of a parcel's invoice: the PDF the spec's screen shows (the original, or the
 * rendering of an XML-only invoice), the e-invoice XML, or the facts read from it.
 */
export type InvoicePart = 'pdf' | 'xml' | 'facts' | 'history';

/** The bytes of a part: in the answer (direct), or where nginx fetches them once the portal has said yes. */
export type InvoiceBytes = { sha256: string; size: number } & (
  { body: InvoiceBody['body']; internalPath?: undefined } | { body?: undefined; internalPath: string }
);

export type OpenedPart<P extends InvoicePart> = P extends 'facts'
  ? InvoiceFacts
  : P extends 'history'
    ? InvoiceHistory
    : InvoiceBytes;

const AUDIT_ACTION: Record<InvoicePart, AuditAction> = {
  pdf: 'invoice.download',
  xml: 'invoice.download-xml',
  facts: 'invoice.facts',
  history: 'invoice.history',
};

/** What a part is read from: the current invoice, or one version of it (the history's downloads). */
type Source = Pick<
  InvoiceRow,
  'parcelCode' | 'sha256' | 'size' | 'xmlSha256' | 'xmlSize' | 'renderingSha256' | 'renderingSize'
>;

// Invoices are typically tens to hundreds of KB: 64 MB keeps the hot ones, larger files always stream.
const READER_LIMITS = { maxCacheBytes: 64 * 1024 * 1024, maxEntryBytes: 2 * 1024 * 1024 };

export interface InvoiceAccessDeps {
  invoices: Pick<InvoicesRepository, 'findCurrent' | 'findVersion' | 'listVersions'>;
  warnings: Pick<InvoiceWarningsRepository, 'pending'>;
  blobStore: BlobStore;
  rateLimits: Pick<RateLimits, 'downloads' | 'unknownParcels'>;
  audit: Pick<AuditTrail, 'queued'>;
  metrics: Pick<Metrics, 'invoiceDownloads' | 'invoiceDownloadBytes'>;
  /**
   * Told of every current PDF a person opened (their "Recently opened" list); not awaited, and its failure is
   * the callee's to report: the invoice is answered either way.
   */
  onOpened?: (user: string, parcelCode: string) => void;
  /** `x-accel-redirect`: nginx sends the bytes from the shared store, so only the row is read here. */
  delivery: 'direct' | 'x-accel-redirect';
}

/**
 * Reading an invoice, whichever part and however the bytes travel: the allowances, the audit entry, the
 * metrics and the choice between sending the bytes and handing them to nginx are decided here alone, so the
 * routes only validate, call `open` and set their headers.
 *
 * The allowances, for every part alike:
 * - a PDF or an XML spends one download; the facts need one left but spend none (they are read beside the PDF);
 * - a code without an invoice spends one of the unknown-parcel allowance. The attempt holds that unit while
 *   the row is looked up, so concurrent guesses cannot all pass a check that none of them has counted yet;
 *   it is given back when the invoice is found. The invoice screen asks for the facts only once the PDF was
 *   found, so a mistyped code in a link costs one, not two.
 */
export function createInvoiceAccess(deps: InvoiceAccessDeps) {
  const { rateLimits, audit, metrics } = deps;
  const reader = createInvoiceReader(deps.blobStore, READER_LIMITS);

  function foundOrRefused(invoice: InvoiceRow | undefined): InvoiceRow {
    if (!invoice) throw new DomainError('not-found', NO_INVOICE_MESSAGE, UNKNOWN_PARCEL);
    return invoice;
  }

  function bytesOf(blob: { sha256: string; size: number }, what: string): InvoiceBytes | Promise<InvoiceBytes> {
    if (deps.delivery === 'x-accel-redirect') {
      return deps.blobStore.accelRedirectPath(blob.sha256).then((internalPath) => ({ ...blob, internalPath }));
    }
    const opened = reader.open(blob.sha256, blob.size);
    return opened instanceof Promise
      ? opened.then((body) => bytesFrom(blob, body, what))
      : bytesFrom(blob, opened, what);
  }

  function bytesFrom(blob: { sha256: string }, opened: InvoiceBody | undefined, what: string): InvoiceBytes {
    // A row is written only after its bytes, and bytes are never deleted: this is a broken store, not a refusal.
    if (!opened) throw new Error(`${what} names blob ${blob.sha256}, which is missing`);
    return { sha256: blob.sha256, size: opened.size, body: opened.body };
  }

  async function versionOf(parcelCode: string, versionId: number): Promise<Source> {
    const version = await deps.invoices.findVersion(parcelCode, versionId);
    if (!version) throw new DomainError('not-found', NO_VERSION_MESSAGE, NO_VERSION);
    return version;
  }

  /** The current PDF or XML without a promise when its bytes are in memory: every download but the first. */
  function read(
    part: InvoicePart,
    current: InvoiceRow,
    versionId: number | undefined,
    earlierVersions: boolean,
  ): InvoiceFacts | InvoiceHistory | InvoiceBytes | Promise<InvoiceFacts | InvoiceHistory | InvoiceBytes> {
    if (versionId === undefined && (part === 'pdf' || part === 'xml')) return currentBytes(part, current);
    return readAny(part, current, versionId, earlierVersions);
  }

  async function readAny(
    part: InvoicePart,
    current: InvoiceRow,
    versionId: number | undefined,
    earlierVersions: boolean,
  ): Promise<InvoiceFacts | InvoiceHistory | InvoiceBytes> {
    // The warnings are read fresh, never cached: an acknowledgement on another instance shows at once.
    if (part === 'facts') return invoiceFactsOf(current, await deps.warnings.pending(current.parcelCode));
    if (part === 'history') return historyOf(current, await deps.invoices.listVersions(current.parcelCode));
    const invoice = versionId === undefined ? current : await versionOf(current.parcelCode, versionId);
    // The current bytes are the invoice anyone with the code opens; earlier ones name the accounts it had.
    if (!earlierVersions && invoice.sha256 !== current.sha256) {
      throw new DomainError('forbidden', EARLIER_VERSION_MESSAGE, EARLIER_VERSION);
    }
    return currentBytes(part, invoice);
  }

  /** The PDF or the XML of `invoice` (the current row, or one version of it). */
  function currentBytes(part: InvoicePart, invoice: Source): InvoiceBytes | Promise<InvoiceBytes> {
    if (part === 'pdf') {
      // For an XML-only invoice, the PDF rendered from it at ingestion.
      const pdf = { sha256: invoice.renderingSha256 ?? invoice.sha256, size: invoice.renderingSize ?? invoice.size };
      return bytesOf(pdf, `invoice ${invoice.parcelCode}`);
    }
    if (!invoice.xmlSha256) throw new DomainError('not-found', NO_XML_MESSAGE, NO_XML);
    return bytesOf({ sha256: invoice.xmlSha256, size: invoice.xmlSize ?? 0 }, `invoice ${invoice.parcelCode}'s XML`);
  }

  interface OpenRequest<P extends InvoicePart> {
    user: string;
    parcelCode: string;
    part: P;
    versionId?: number;
    earlierVersions?: boolean;
  }

  type Reservation = Exclude<ReturnType<RateLimits['unknownParcels']['reserve']>, Promise<unknown>>;

  /**
   * `open` without a promise when every step is answered from memory (both allowances known, the row and the
   * bytes cached: every download of an invoice after its first), else a promise; a refusal then is thrown there
   * and then. Each step is the one `open` describes, in the same order.
   */
  function openAtOnce<P extends InvoicePart>(request: OpenRequest<P>): OpenedPart<P> | Promise<OpenedPart<P>> {
    const { user, part } = request;
    // Both allowances in one round trip when either reads the store (neither depends on the other's answer).
    const spending =
      part === 'facts' || part === 'history' ? rateLimits.downloads.spentFor(user) : rateLimits.downloads.hit(user);
    const reserving = rateLimits.unknownParcels.reserve(user);
    if (spending instanceof Promise || reserving instanceof Promise) {
      return Promise.all([spending, reserving]).then(([downloadWaitMs, guess]) =>
        allowed(request, downloadWaitMs, guess),
      );
    }
    return allowed(request, spending, reserving);
  }

  function allowed<P extends InvoicePart>(
    request: OpenRequest<P>,
    downloadWaitMs: number | undefined,
    guess: Reservation,
  ): OpenedPart<P> | Promise<OpenedPart<P>> {
    const { parcelCode, part, versionId, earlierVersions = true } = request;
    const waitMs = downloadWaitMs ?? guess.waitMs;
    if (waitMs !== undefined) {
      guess.settle(false);
      throw rateLimited(waitMs);
    }
    const partVersion = part === 'pdf' || part === 'xml' ? versionId : undefined;
    let opening;
    try {
      const finding = deps.invoices.findCurrent(parcelCode);
      opening =
        finding instanceof Promise
          ? finding.then((row) => read(part, foundOrRefused(row), partVersion, earlierVersions))
          : read(part, foundOrRefused(finding), partVersion, earlierVersions);
    } catch (error) {
      throw refused(request, guess, error);
    }
    return opening instanceof Promise
      ? opening.then(
          (opened) => answered(request, guess, opened),
          (error: unknown) => {
            throw refused(request, guess, error);
          },
        )
      : answered(request, guess, opening);
  }

  /** A refusal after the allowances: the guess settled, and an unknown code or version audited. */
  function refused(request: OpenRequest<InvoicePart>, guess: Reservation, error: unknown): unknown {
    const { user, parcelCode, part, versionId } = request;
    const action = AUDIT_ACTION[part];
    const notFound = error instanceof DomainError && error.kind === 'not-found' ? error.reason : undefined;
    guess.settle(notFound === UNKNOWN_PARCEL);
    if (error instanceof DomainError && error.reason === EARLIER_VERSION) {
      audit.queued({ actor: user, action, target: parcelCode, outcome: 'refused', detail: `version ${versionId}` });
    }
    if (notFound) {
      const detail =
        notFound === UNKNOWN_PARCEL
          ? 'unknown parcel code'
          : notFound === NO_VERSION
            ? `no version ${versionId}`
            : 'no XML';
      audit.queued({ actor: user, action, target: parcelCode, outcome: 'refused', detail });
    }
    return error;
  }

  function answered<P extends InvoicePart>(
    request: OpenRequest<P>,
    guess: Reservation,
    opened: InvoiceFacts | InvoiceHistory | InvoiceBytes,
  ): OpenedPart<P> {
    const { user, parcelCode, part, versionId } = request;
    const action = AUDIT_ACTION[part];
    guess.settle(false);
    // Queued, written in batches: the answer never waits for the audit log.
    if ('sha256' in opened) {
      const version = versionId === undefined ? '' : `version ${versionId} `;
      audit.queued({
        actor: user,
        action,
        target: parcelCode,
        outcome: 'ok',
        detail: `${version}sha256 ${opened.sha256}`,
      });
      if (part === 'pdf' && versionId === undefined) deps.onOpened?.(user, parcelCode);
      // Counted here, not from the answer: behind nginx the answer has no body and nginx sends the bytes.
      metrics.invoiceDownloads.inc();
      metrics.invoiceDownloadBytes.inc(opened.size);
    } else {
      audit.queued({ actor: user, action, target: parcelCode, outcome: 'ok', detail: null });
    }
    return opened as OpenedPart<P>;
  }

  return {
    /**
     * `versionId`: a PDF or XML of that version (the history's downloads) instead of the current one; the
     * same allowances and audit apply, and the version must be the parcel code's own. `earlierVersions: false`
     * refuses a version whose bytes are not the current ones (403).
     */
    async open<P extends InvoicePart>(request: OpenRequest<P>): Promise<OpenedPart<P>> {
      return openAtOnce(request);
    },
    /**
     * The same as `open`, answered there and then when nothing had to be read (the download route's every
     * download but an invoice's first): the value, or a refusal thrown; a promise otherwise.
     */
    openAtOnce,
  };
}

export type InvoiceAccess = ReturnType<typeof createInvoiceAccess>;

/**
 * The history as people read it. The current version is the newest one holding the current bytes: a later
 * upload of the same bytes adds no version, and the last committed version is always the current one.
 */
export function historyOf(current: InvoiceRow, versions: VersionWithWarnings[]): InvoiceHistory {
  const currentId = versions.find((version) => version.sha256 === current.sha256)?.id;
  return {
    parcelCode: current.parcelCode,
    versions: versions.map((version) => ({
      id: version.id,
      receivedAt: version.uploadedAt.toISOString(),
      receivedFrom: version.uploadedBy,
      format: version.format,
      profileName: version.facts?.profileName ?? null,
      invoiceNumber: version.facts?.invoiceNumber ?? null,
      typeCode: version.facts?.typeCode ?? null,
      issueDate: version.facts?.issueDate ?? null,
      amountDue: version.facts?.amountDue ?? null,
      totalGross: version.facts?.totalGross ?? null,
      currency: version.facts?.currency ?? null,
      paymentAccounts: version.facts ? paymentAccountsOf(version.facts) : null,
      sha256: version.sha256,
      size: version.size,
      hasXml: version.xmlSha256 !== null,
      current: version.id === currentId,
      downloadable: true,
      warnings: version.warnings,
      validation: versionValidationOf(version.facts?.validation),
    })),
  };
}
