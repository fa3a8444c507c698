import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { StoredInvoiceFacts } from '../invoices/e-invoice/stored-facts.ts';

export const users = pgTable(
  'users',
  {
    email: text('email').primaryKey(),
    admin: boolean('admin').notNull().default(false),
    activated: boolean('activated').notNull().default(false),
    registered: boolean('registered').notNull().default(false),
    firebaseUid: text('firebase_uid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by'),
  },
  (table) => [
    // Lets a prefix search (`LIKE 'abc%'`) use an index regardless of the database's collation.
    index('users_email_pattern_idx').using('btree', sql`${table.email} text_pattern_ops`),
    // Lets the admin screen's "contains" search (`LIKE '%abc%'`) use an index at 100,000 rows; needs pg_trgm.
    // A short pending list (256 kB): PGlite never vacuums, and with GIN's default 4 MB of unmerged entries
    // after a bulk add the planner rightly gives up on the index and scans the table.
    index('users_email_trgm_idx')
      .using('gin', sql`${table.email} gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
    // The list sorted by date added (either way; the e-mail breaks ties) reads a page instead of sorting
    // every row: at 100,000 rows a page cost 30–55 ms without it.
    index('users_created_at_idx').on(table.createdAt, table.email),
  ],
);

/**
 * What ingestion read from an invoice version: its format, the EN 16931 terms, and the blobs made beside the
 * original (sha256): the XML of a hybrid (for an XML-only invoice, the original itself) and the PDF rendering
 * of an XML-only invoice. Every column naming a blob names one in the invoice store.
 */
const eInvoiceColumns = {
  format: text('format', { enum: ['pdf', 'facturx', 'cii', 'ubl'] })
    .notNull()
    .default('pdf'),
  facts: jsonb('facts').$type<StoredInvoiceFacts>(),
  xmlSha256: text('xml_sha256'),
  xmlSize: integer('xml_size'),
  renderingSha256: text('rendering_sha256'),
  renderingSize: integer('rendering_size'),
  /** Set when this version's payment account differs from the version before (carried on while it stays). */
  bankDetailsChangedAt: timestamp('bank_details_changed_at', { withTimezone: true }),
  amountChangedAt: timestamp('amount_changed_at', { withTimezone: true }),
};

export const invoices = pgTable('invoices', {
  parcelCode: text('parcel_code').primaryKey(),
  sha256: text('sha256').notNull(),
  size: integer('size').notNull(),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  uploadedBy: text('uploaded_by').notNull(),
  ...eInvoiceColumns,
});

/** Every version an invoice ever had, the current one included, so a replacement loses nothing. */
export const invoiceVersions = pgTable(
  'invoice_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    parcelCode: text('parcel_code').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    uploadedBy: text('uploaded_by').notNull(),
    ...eInvoiceColumns,
  },
  (table) => [index('invoice_versions_parcel_code_idx').on(table.parcelCode, table.id)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: text('actor'),
    action: text('action').notNull(),
    target: text('target'),
    outcome: text('outcome', { enum: ['ok', 'refused', 'failed'] }).notNull(),
    detail: text('detail'),
    /** The client (address, IPv6 /64) a refusal came from; null for everything else. */
    client: text('client'),
    /** How many refusals this row stands for: one row per client, reason and minute. */
    count: integer('count').notNull().default(1),
    /** Set only on aggregated refusals: the key that folds a minute of identical refusals into one row. */
    aggregateKey: text('aggregate_key'),
  },
  (table) => [
    index('audit_log_at_idx').on(table.at),
    index('audit_log_target_idx').on(table.target, table.id),
    index('audit_log_actor_idx').on(table.actor, table.id),
    uniqueIndex('audit_log_aggregate_key_idx').on(table.aggregateKey),
  ],
);

/** One fixed window per key, shared by every API instance through atomic upserts. */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    key: text('key').primaryKey(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    hits: integer('hits').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('rate_limit_windows_expires_at_idx').on(table.expiresAt)],
);

export const schema = { users, invoices, invoiceVersions, auditLog, rateLimitWindows };
