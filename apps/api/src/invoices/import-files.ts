import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { InvoiceStored } from '@portal/contract';
import type { IngestInput } from './ingest.ts';

/** The domain's one way in for an invoice (`domain.ingestInvoice`). */
export type Ingest = (input: IngestInput) => Promise<InvoiceStored>;

export interface ImportItem {
  file: string;
  parcelCode: string;
}

export interface ImportSummary {
  created: number;
  replaced: number;
  unchanged: number;
  failed: { file: string; reason: string }[];
}

/** Invoice files: PDFs (plain or hybrid) and XML-only e-invoices. */
const INVOICE_FILE = /\.(pdf|xml)$/i;

/** Every `<parcel code>.pdf` or `<parcel code>.xml` directly in `dir`, in name order so a re-run prints the same lines. */
export async function listImportDir(dir: string): Promise<{ items: ImportItem[]; ignored: string[] }> {
  const entries = await readdir(dir, { withFileTypes: true });
  const items: ImportItem[] = [];
  const ignored: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const isInvoice = INVOICE_FILE.test(entry.name);
    if (isInvoice && (entry.isFile() || entry.isSymbolicLink())) {
      items.push({ file: path.join(dir, entry.name), parcelCode: entry.name.slice(0, -'.pdf'.length) });
    } else {
      ignored.push(entry.name);
    }
  }
  return { items, ignored };
}

/**
 * Imports one file after another through the same ingestion as the HTTP route. A failure is reported and
 * the run goes on, so one bad file does not hold back the rest; idempotent because identical bytes are
 * 'unchanged'.
 */
export async function importInvoiceFiles(
  ingest: Ingest,
  items: ImportItem[],
  uploadedBy: string,
  progress: (line: string) => void,
): Promise<ImportSummary> {
  const summary: ImportSummary = { created: 0, replaced: 0, unchanged: 0, failed: [] };
  const width = String(items.length).length;
  for (const [index, item] of items.entries()) {
    const prefix = `[${String(index + 1).padStart(width)}/${items.length}] ${path.basename(item.file)}`;
    try {
      const stored = await importOne(ingest, item, uploadedBy);
      summary[stored.status] += 1;
      progress(
        `${prefix} -> ${stored.parcelCode}: ${stored.status} ${stored.format} (${stored.size} bytes, sha256 ${stored.sha256.slice(0, 12)})`,
      );
      for (const warning of stored.warnings) progress(`${' '.repeat(prefix.length)}   warning: ${warning}`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      summary.failed.push({ file: item.file, reason });
      progress(`${prefix}: FAILED ${reason}`);
    }
  }
  return summary;
}

async function importOne(ingest: Ingest, item: ImportItem, uploadedBy: string): Promise<InvoiceStored> {
  const info = await stat(item.file);
  if (!info.isFile()) throw new Error('not a regular file');
  const body = createReadStream(item.file);
  try {
    return await ingest({ parcelCode: item.parcelCode, body, declaredSize: info.size, uploadedBy });
  } finally {
    body.destroy();
  }
}

export function formatSummary(summary: ImportSummary): string[] {
  const lines = [
    `imported ${summary.created}, replaced ${summary.replaced}, unchanged ${summary.unchanged}, failed ${summary.failed.length}`,
  ];
  for (const failure of summary.failed) lines.push(`  failed ${failure.file}: ${failure.reason}`);
  return lines;
}
