import { getTableConfig, type PgColumn } from 'drizzle-orm/pg-core';
import { invoices, invoiceVersions } from './schema.ts';

/**
 * Every column that names a blob in the invoice store by its sha256 (64 lowercase hex characters, or null).
 * Backup copies exactly the blobs these name, verify checks them, and the orphan clean-up never deletes one
 * of them. A new column that names a blob (an XML rendering, an attachment) joins this list; a test fails
 * when a `*sha256` column of the schema is in neither this list nor NOT_BLOB_REFERENCES.
 */
export const BLOB_REFERENCES: PgColumn[] = [
  invoices.sha256,
  invoiceVersions.sha256,
  // An e-invoice's XML (a hybrid's attachment; for XML-only, the original again) and its PDF rendering.
  invoices.xmlSha256,
  invoiceVersions.xmlSha256,
  invoices.renderingSha256,
  invoiceVersions.renderingSha256,
];

/** `*sha256` columns that hold a hash of something else than a stored blob. */
export const NOT_BLOB_REFERENCES: PgColumn[] = [];

/** The table and column names of a reference, for raw SQL. */
export function referenceName(column: PgColumn): { table: string; column: string } {
  return { table: getTableConfig(column.table).name, column: column.name };
}
