import { PassThrough, type Readable } from 'node:stream';
import { MAX_ZIP_INVOICES, type InvoiceFilter, type InvoiceSort, type InvoiceZipBody } from '@portal/contract';
import { ZipFile } from 'yazl';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { BlobStore } from '../blob-store/blob-store.ts';
import { DomainError } from '../domain-error.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { RateLimits } from '../rate-limits/rate-limits.ts';
import type { InvoiceRow } from './repository.ts';
import type { InvoiceSearchRepository } from './search-repository.ts';
import { paymentAccountsOf } from './e-invoice/stored-facts.ts';
import { validationCell } from './validation-summary.ts';

export const NO_INVOICES_MESSAGE = 'None of the chosen invoices was found.';

/** The daily ceiling, in words a person can act on: how many are left today, and when it starts again. */
export const exportCeilingMessage = (input: { count: number; left: number; max: number }) =>
  input.left === 0
    ? `You have exported ${input.max} invoices today, as many as one person may in a day. ` +
      'You can export more after midnight (UTC); if you need more today, ask an administrator.'
    : `This ZIP holds ${input.count} invoices, and you may export ${input.left} more today (at most ${input.max} a day). ` +
      'Choose fewer invoices, or ask an administrator if you need more today.';

const SECONDS_TO_MIDNIGHT_UTC = () => {
  const now = Date.now();
  const day = 24 * 60 * 60_000;
  return Math.max(1, Math.ceil((Math.floor(now / day + 1) * day - now) / 1000));
};

/** What a local header, data descriptor and central-directory entry cost beside the name (zip64 at worst). */
const ENTRY_OVERHEAD = 30 + 24 + 46 + 28;

/**
 * A cell a spreadsheet would run as a formula (= + - @, a tab or carriage return that some read past, or a
 * `;` or `,` that a spreadsheet splitting on it reads as the end of an empty cell before a formula) starts
 * with an apostrophe instead, so opening the CSV never executes what an invoice's sender wrote. A cell with
 * a separator of either kind is also quoted, so a spreadsheet that splits on `;` keeps it one cell.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r;,]/.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A payment account as the CSV lists it: all but its last four characters hidden. The CSV travels (mail,
 * shared drives, a spreadsheet's history); the last four tell a person which account it is, and the whole
 * account stays in the invoice files beside it and in each invoice's details, for whoever pays.
 */
export function maskedAccount(account: string): string {
  const compact = account.replace(/\s+/g, '');
  if (compact.length <= 4) return compact;
  return `${'*'.repeat(compact.length - 4)}${compact.slice(-4)}`;
}

const CSV_COLUMNS: [string, (row: InvoiceRow) => string | number | null | undefined][] = [
  ['Parcel code', (row) => row.parcelCode],
  ['Format', (row) => row.format],
  ['Profile', (row) => row.facts?.profileName],
  ['Invoice number', (row) => row.facts?.invoiceNumber],
  ['Type code', (row) => row.facts?.typeCode],
  ['Issue date', (row) => row.facts?.issueDate],
  ['Due date', (row) => row.facts?.dueDate],
  ['Seller', (row) => row.facts?.sellerName],
  ['Seller VAT ID', (row) => row.facts?.sellerVatId],
  ['Buyer', (row) => row.facts?.buyerName],
  ['Buyer reference', (row) => row.facts?.buyerReference],
  ['Currency', (row) => row.facts?.currency],
  ['Total net', (row) => row.facts?.totalNet],
  ['Total VAT', (row) => row.facts?.totalTax],
  ['Total gross', (row) => row.facts?.totalGross],
  ['Amount due', (row) => row.facts?.amountDue],
  ['Payment accounts', (row) => (row.facts ? paymentAccountsOf(row.facts).map(maskedAccount).join(' ') : null)],
  ['Received at', (row) => row.uploadedAt.toISOString()],
  ['Bank details changed', (row) => (row.bankDetailsChangedAt ? 'yes' : 'no')],
  ['Validation', (row) => validationCell(row.facts?.validation)],
  ['PDF', (row) => `${row.parcelCode}/${row.parcelCode}.pdf`],
  ['XML', (row) => (row.xmlSha256 ? `${row.parcelCode}/${row.parcelCode}.xml` : null)],
];

/** The facts of every invoice in the ZIP, one line each, in the ZIP's order; UTF-8 with a BOM for Excel. */
export function factsCsv(rows: InvoiceRow[]): string {
  const lines = [CSV_COLUMNS.map(([name]) => csvCell(name)).join(',')];
  for (const row of rows) lines.push(CSV_COLUMNS.map(([, value]) => csvCell(value(row))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export interface InvoiceZipDeps {
  search: Pick<InvoiceSearchRepository, 'codesOf' | 'rowsOf'>;
  blobStore: Pick<BlobStore, 'open'>;
  rateLimits: Pick<RateLimits, 'downloads' | 'invoiceExports'>;
  audit: Pick<AuditTrail, 'queued' | 'required'>;
  metrics: Pick<Metrics, 'invoiceDownloads' | 'invoiceDownloadBytes' | 'invoiceExportCeilingRefusals'>;
  log: { error(details: object, message: string): void };
}

export interface PreparedZip {
  count: number;
  /** About the ZIP's size (the PDFs are stored as they are, the XML and CSV compressed): for a progress bar. */
  expectedBytes: number;
  stream: Readable;
}

/**
 * Many invoices in one ZIP, streamed as it is built: the first bytes leave before the second invoice is read,
 * and one blob is open at a time. Each invoice spends one download of the person's allowance (the same one a
 * single PDF spends), all at once before anything is sent: a ZIP of 500 is 500 downloads, and is refused
 * whole when fewer are left. It is audited as one action naming every parcel code.
 */
export function createInvoiceZip(deps: InvoiceZipDeps) {
  async function codesFor(body: InvoiceZipBody): Promise<string[]> {
    if (body.parcelCodes) return [...new Set(body.parcelCodes)];
    const sort: InvoiceSort = body.sort ?? '-received';
    const filter: InvoiceFilter = body.search ?? {};
    return deps.search.codesOf(filter, sort, MAX_ZIP_INVOICES);
  }

  return {
    async prepare(request: { user: string; body: InvoiceZipBody }): Promise<PreparedZip> {
      const { user } = request;
      const codes = await codesFor(request.body);
      const found = new Map((await deps.search.rowsOf(codes)).map((row) => [row.parcelCode, row]));
      const rows = codes.flatMap((code) => found.get(code) ?? []);
      const event = { actor: user, action: 'invoice.download-zip' as const, target: `${rows.length} invoices` };
      if (rows.length === 0) {
        deps.audit.queued({ ...event, outcome: 'refused', detail: 'none of the chosen invoices exists' });
        throw new DomainError('not-found', NO_INVOICES_MESSAGE);
      }
      // The day's ceiling first, without spending: a refused ZIP spends neither allowance.
      const exports = deps.rateLimits.invoiceExports;
      const refuseOverCeiling = async (detail: string): Promise<never> => {
        const left = await exports.leftFor(user);
        deps.metrics.invoiceExportCeilingRefusals.inc();
        deps.audit.queued({ ...event, outcome: 'refused', detail: `${detail}: ${left} left today` });
        throw new DomainError(
          'rate-limited',
          exportCeilingMessage({ count: rows.length, left, max: exports.max }),
          'daily export ceiling',
          { retryAfterSeconds: SECONDS_TO_MIDNIGHT_UTC() },
        );
      };
      if ((await exports.leftFor(user)) < rows.length) await refuseOverCeiling('daily export ceiling');
      const waitMs = await deps.rateLimits.downloads.hitMany(user, rows.length);
      if (waitMs !== undefined) {
        const left = await deps.rateLimits.downloads.leftFor(user);
        const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
        deps.audit.queued({ ...event, outcome: 'refused', detail: `download allowance: ${left} left` });
        throw new DomainError(
          'rate-limited',
          `This ZIP holds ${rows.length} invoices, and you may download ${left} more this hour. Choose fewer invoices, or try again in ${minutes} minutes.`,
          undefined,
          { retryAfterSeconds: Math.ceil(waitMs / 1000) },
        );
      }
      // Another instance may have spent the rest of the day meanwhile: counted now, all or none.
      if ((await exports.hitMany(user, rows.length)) !== undefined) await refuseOverCeiling('daily export ceiling');
      // Before the first byte: a download nobody could account for does not happen.
      await deps.audit.required({
        ...event,
        outcome: 'ok',
        detail: rows.map((row) => row.parcelCode).join(' '),
      });

      const zip = new ZipFile();
      const csv = Buffer.from(factsCsv(rows), 'utf8');
      zip.addBuffer(csv, 'invoices.csv', { compress: true });
      let expectedBytes = csv.length + ENTRY_OVERHEAD + 12 + 22;
      for (const row of rows) {
        const pdf = { sha256: row.renderingSha256 ?? row.sha256, size: row.renderingSize ?? row.size };
        // PDFs are compressed already; XML shrinks to a fifth. For an XML-only invoice the PDF is the rendering.
        const parts = [{ ...pdf, name: `${row.parcelCode}/${row.parcelCode}.pdf`, compress: false }];
        if (row.xmlSha256) {
          const xml = { sha256: row.xmlSha256, size: row.xmlSize ?? 0 };
          parts.push({ ...xml, name: `${row.parcelCode}/${row.parcelCode}.xml`, compress: true });
        }
        for (const part of parts) {
          expectedBytes += part.size + ENTRY_OVERHEAD + 2 * part.name.length;
          zip.addReadStreamLazy(part.name, { compress: part.compress, mtime: row.uploadedAt }, (done) => {
            deps.blobStore.open(part.sha256).then(
              (blob) => {
                if (!blob) done(new Error(`${row.parcelCode}: blob ${part.sha256} is missing`), null as never);
                else {
                  deps.metrics.invoiceDownloadBytes.inc(blob.size);
                  done(null, blob.stream);
                }
              },
              (error: unknown) => done(error as Error, null as never),
            );
          });
        }
      }
      zip.end();
      deps.metrics.invoiceDownloads.inc(rows.length);
      // A failure half-way (a blob gone from the store) can only break the stream: the answer has begun.
      const output = new PassThrough();
      zip.on('error', (error: Error) => {
        deps.log.error({ err: error }, 'an invoice ZIP failed while it was being sent');
        output.destroy(error);
      });
      zip.outputStream.pipe(output);
      return { count: rows.length, expectedBytes, stream: output };
    },
  };
}

export type InvoiceZip = ReturnType<typeof createInvoiceZip>;
