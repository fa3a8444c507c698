import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { StoredInvoiceFacts } from '../invoices/e-invoice/stored-facts.ts';
import type { VisibleAccounts } from '../invoices/e-invoice/visible-text.ts';

export const users = pgTable(
  'users',
  {
    email: text('email').primaryKey(),
    admin: boolean('admin').notNull().default(false),
    /** May search every invoice and download many at once (the Invoices page); granted like `admin`. */
    finance: boolean('finance').notNull().default(false),
    activated: boolean('activated').notNull().default(false),
    registered: boolean('registered').notNull().default(false),
    firebaseUid: text('firebase_uid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by'),
    /** The row's id in /scim/v2/Users/<id>: stable and opaque (migration 0014). */
    scimId: uuid('scim_id').notNull().defaultRandom(),
    /** The directory's own id of the person (SCIM externalId), as it sent it. */
    scimExternalId: text('scim_external_id'),
    /** Who keeps the row: null, the portal's administrators; 'scim', the company directory. */
    managedBy: text('managed_by'),
    /** Set by the directory (SCIM active=false): the row stays, the person is refused. */
    suspended: boolean('suspended').notNull().default(false),
    /** The single sign-on provider's id of the person, bound at their first company sign-in (migration 0024). */
    ssoSubject: text('sso_subject'),
    ssoLinkedAt: timestamp('sso_linked_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Who asked to make this person an administrator, who approved it (null when no second administrator
     * was needed) and when it took effect (migration 0022): a change-guard warning is not theirs to clear
     * when its uploader made them, or when they became one after it. Null for administrators made before.
     */
    adminGrantedBy: text('admin_granted_by'),
    adminApprovedBy: text('admin_approved_by'),
    adminGrantedAt: timestamp('admin_granted_at', { withTimezone: true }),
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
    // One sign-in account admits one row: two rows bound to it would both let its holder in.
    uniqueIndex('users_firebase_uid_idx').on(table.firebaseUid),
    uniqueIndex('users_scim_id_idx').on(table.scimId),
    index('users_scim_external_id_idx').on(table.scimExternalId),
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
  /**
   * On a version: when it raised a warning about its payment accounts or amount (invoice_warnings has
   * them). On the current invoice: the latest such warning not yet acknowledged. Kept for the release
   * before, which reads them; this one reads invoice_warnings.
   */
  bankDetailsChangedAt: timestamp('bank_details_changed_at', { withTimezone: true }),
  amountChangedAt: timestamp('amount_changed_at', { withTimezone: true }),
};

/**
 * The distinct sellers and buyers the invoices name, one table per role, each name once with an id that never
 * changes (migration 0017): the name search matches here, among tens of thousands, then reads the invoices
 * by id. The database fills `invoices.seller_id`/`buyer_id` from the names (a trigger), whoever writes them.
 */
const partyTable = (name: 'invoice_sellers' | 'invoice_buyers') =>
  pgTable(
    name,
    {
      id: serial('id').primaryKey(),
      name: text('name').notNull().unique(`${name}_name_unique`),
    },
    (table) => [
      index(`${name}_name_trgm_idx`)
        .using('gin', sql`${table.name} gin_trgm_ops`)
        .with({ fastupdate: false }),
    ],
  );
export const invoiceSellers = partyTable('invoice_sellers');
export const invoiceBuyers = partyTable('invoice_buyers');

export const invoices = pgTable(
  'invoices',
  {
    parcelCode: text('parcel_code').primaryKey(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    uploadedBy: text('uploaded_by').notNull(),
    ...eInvoiceColumns,
    /**
     * What the Invoices page searches and sorts by, copied from `facts` when a version becomes current
     * (invoices/search-terms.ts): typed and indexed, which jsonb paths are not. Null for a plain PDF.
     */
    invoiceNumber: text('invoice_number'),
    sellerName: text('seller_name'),
    buyerName: text('buyer_name'),
    issueDate: date('issue_date', { mode: 'string' }),
    totalGross: numeric('total_gross'),
    currency: text('currency'),
    /** The seller's and buyer's ids, set by the database from the names (never written by the portal). */
    sellerId: integer('seller_id').references(() => invoiceSellers.id),
    buyerId: integer('buyer_id').references(() => invoiceBuyers.id),
  },
  (table) => [
    // A searched page at 10 million invoices reads a page of one of these, never the table
    // (docs/decisions/0074-invoice-search-at-ten-million.md has the plans).
    index('invoices_uploaded_at_idx').on(table.uploadedAt, table.parcelCode),
    index('invoices_issue_date_idx').on(table.issueDate, table.parcelCode),
    index('invoices_issue_date_desc_idx').on(table.issueDate.desc().nullsLast(), table.parcelCode.desc()),
    index('invoices_total_gross_idx').on(table.totalGross, table.parcelCode),
    index('invoices_total_gross_desc_idx').on(table.totalGross.desc().nullsLast(), table.parcelCode.desc()),
    // Amounts within their currency (migration 0022): the amount orders' pages.
    index('invoices_currency_total_gross_idx').on(table.currency, table.totalGross, table.parcelCode),
    index('invoices_currency_total_gross_desc_idx').on(
      table.currency,
      table.totalGross.desc().nullsLast(),
      table.parcelCode.desc(),
    ),
    index('invoices_parcel_code_prefix_idx').using('btree', sql`upper(${table.parcelCode}) text_pattern_ops`),
    index('invoices_invoice_number_prefix_idx').using('btree', sql`upper(${table.invoiceNumber}) text_pattern_ops`),
    index('invoices_seller_id_idx').on(table.sellerId),
    index('invoices_buyer_id_idx').on(table.buyerId),
    index('invoices_bank_details_changed_idx')
      .on(table.uploadedAt, table.parcelCode)
      .where(sql`${table.bankDetailsChangedAt} is not null`),
    // The few whose stored EN 16931 check failed or warned, newest first: the Validation filter (migration 0022).
    index('invoices_validation_flagged_idx')
      .on(sql`(${table.facts}->'validation'->>'status')`, table.uploadedAt, table.parcelCode)
      .where(sql`(${table.facts}->'validation'->>'status') in ('invalid', 'warnings')`),
  ],
);

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
    /**
     * The accounts the version's pages show, or why they could not be read (migration 0018): what the change
     * guard holds a later version against where no XML can be compared. Null for XML only and for versions
     * stored before every PDF's pages were read.
     */
    visibleAccounts: jsonb('visible_accounts').$type<VisibleAccounts>(),
  },
  (table) => [index('invoice_versions_parcel_code_idx').on(table.parcelCode, table.id)],
);

/**
 * What a version changed that someone must look at before paying (the change guard): raised when the
 * version is stored, and cleared only by an administrator other than its uploader. Later versions never
 * clear one.
 */
export const invoiceWarnings = pgTable(
  'invoice_warnings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    parcelCode: text('parcel_code').notNull(),
    versionId: bigint('version_id', { mode: 'number' })
      .notNull()
      .references(() => invoiceVersions.id),
    kind: text('kind', {
      enum: ['bank-details', 'amount', 'e-invoice-removed', 'visible-account', 'visible-text-unread'],
    }).notNull(),
    detail: text('detail').notNull(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who uploaded the version that raised it: the one person who may not acknowledge it. */
    raisedBy: text('raised_by').notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: text('acknowledged_by'),
  },
  (table) => [
    // The facts panel asks for an invoice's pending warnings with every invoice it shows.
    index('invoice_warnings_pending_idx')
      .on(table.parcelCode, table.id)
      .where(sql`${table.acknowledgedAt} is null`),
  ],
);

/**
 * The invoice retention in force (INVOICE_RETENTION_YEARS, one row): the triggers of migration 0016 refuse to
 * delete, or change the bytes of, an invoice version younger than it. Raised by any process started with a
 * higher setting, never lowered by one (db/invoice-retention.ts).
 */
export const invoiceRetention = pgTable('invoice_retention', {
  id: smallint('id').primaryKey().default(1),
  years: integer('years'),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});

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

/**
 * Sign-in accounts of removed users still to be signed out and deleted at the identity provider: a removal
 * commits with its row gone and its clean-up here, and is finished from here (at once, or retried) whatever
 * the identity provider does meanwhile. A finished clean-up is deleted; the audit log keeps the history.
 */
export const accountCleanups = pgTable(
  'account_cleanups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    /** The account to delete; null when the row had none bound, and then it is looked up by e-mail. */
    firebaseUid: text('firebase_uid'),
    requestedBy: text('requested_by').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    /** Not before this: the back-off after a failed attempt. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** An instance is at it until then; after, anyone may take it up again (its process may have died). */
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (table) => [index('account_cleanups_next_attempt_at_idx').on(table.nextAttemptAt)],
);

/**
 * An administrator's passkeys (WebAuthn credentials), by the allowlist row they belong to: removing the
 * row removes them, so an address added again starts without a passkey.
 */
export const adminPasskeys = pgTable(
  'admin_passkeys',
  {
    /** The credential id, base64url, as the browser names it. */
    credentialId: text('credential_id').primaryKey(),
    email: text('email')
      .notNull()
      .references(() => users.email, { onDelete: 'cascade' }),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter (unsigned 32-bit); a count that goes back means a cloned key. */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** 'singleDevice' (a security key) or 'multiDevice' (synced through a password manager or phone). */
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [index('admin_passkeys_email_idx').on(table.email)],
);

/**
 * The previous release's confirmations, keyed by sign-in alone (so a second sign-in in the same second shared
 * them). No longer read or written; kept until the release after the one that stopped using it (decision 38).
 */
export const adminStepUps = pgTable(
  'admin_step_ups',
  {
    firebaseUid: text('firebase_uid').notNull(),
    authTime: timestamp('auth_time', { withTimezone: true }).notNull(),
    steppedUpAt: timestamp('stepped_up_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.firebaseUid, table.authTime] }),
    index('admin_step_ups_stepped_up_at_idx').on(table.steppedUpAt),
  ],
);

/**
 * "The browser holding the secret whose SHA-256 is H, signed in as uid U at auth_time A, confirmed its passkey
 * at T". Only the hash is kept: a copy of the table confirms nobody. Bound to the sign-in as well, so the
 * secret is worth nothing to another sign-in, and a new sign-in in that browser starts unconfirmed.
 */
export const adminConfirmations = pgTable(
  'admin_confirmations',
  {
    secretHash: text('secret_hash').primaryKey(),
    firebaseUid: text('firebase_uid').notNull(),
    authTime: timestamp('auth_time', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last call this browser made with it: a privileged sign-in left quiet for too long ends. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('admin_confirmations_firebase_uid_idx').on(table.firebaseUid),
    index('admin_confirmations_confirmed_at_idx').on(table.confirmedAt),
  ],
);

/**
 * The one-time code that lets an administrator without a passkey set up their first: issued by whoever made
 * them an administrator or reset their passkeys (or the CLI), at most one per address, only its hash kept.
 */
export const adminEnrollmentCodes = pgTable('admin_enrollment_codes', {
  email: text('email')
    .primaryKey()
    .references(() => users.email, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  issuedBy: text('issued_by').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * A promotion to administrator or a passkey reset waiting for a second administrator (decision 91): one
 * pending request per kind and address; decided or run out, it stays until swept, for the approvals list.
 */
export const adminApprovals = pgTable(
  'admin_approvals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: ['make-admin', 'reset-passkeys', 'enrollment-code'] }).notNull(),
    email: text('email')
      .notNull()
      .references(() => users.email, { onDelete: 'cascade' }),
    requestedBy: text('requested_by').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decision: text('decision', { enum: ['approved', 'rejected'] }),
  },
  (table) => [
    uniqueIndex('admin_approvals_pending_idx')
      .on(table.kind, table.email)
      .where(sql`${table.decidedAt} is null`),
    index('admin_approvals_expires_at_idx').on(table.expiresAt),
  ],
);

/** WebAuthn challenges handed out and not yet answered: single-use, short-lived, bound to one sign-in. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    firebaseUid: text('firebase_uid').notNull(),
    authTime: timestamp('auth_time', { withTimezone: true }).notNull(),
    purpose: text('purpose', { enum: ['registration', 'authentication'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('webauthn_challenges_expires_at_idx').on(table.expiresAt)],
);

/** What each person opened last: their own "Recently opened" list, trimmed to the newest few on every open. */
export const invoiceOpens = pgTable(
  'invoice_opens',
  {
    userEmail: text('user_email')
      .notNull()
      .references(() => users.email, { onDelete: 'cascade' }),
    parcelCode: text('parcel_code').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userEmail, table.parcelCode] }),
    index('invoice_opens_user_email_opened_at_idx').on(table.userEmail, table.openedAt),
  ],
);

/**
 * "Tell me when this parcel's invoice arrives": pending until an invoice version is stored for the code
 * (`arrived_at`), then a mail job retried with back-off until sent; the row is deleted once sent, cancelled,
 * expired or refused (the audit log keeps what happened).
 */
export const invoiceArrivalNotices = pgTable(
  'invoice_arrival_notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userEmail: text('user_email')
      .notNull()
      .references(() => users.email, { onDelete: 'cascade' }),
    parcelCode: text('parcel_code').notNull(),
    /** The invoice link the mail carries, fixed when the person asked. */
    link: text('link').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (table) => [
    uniqueIndex('invoice_arrival_notices_user_parcel_idx').on(table.userEmail, table.parcelCode),
    index('invoice_arrival_notices_parcel_code_idx').on(table.parcelCode),
    index('invoice_arrival_notices_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.arrivedAt} is not null`),
    index('invoice_arrival_notices_expires_at_idx').on(table.expiresAt),
  ],
);

export const schema = {
  users,
  invoiceSellers,
  invoiceBuyers,
  invoices,
  invoiceVersions,
  invoiceWarnings,
  invoiceRetention,
  auditLog,
  rateLimitWindows,
  adminPasskeys,
  adminStepUps,
  adminConfirmations,
  adminEnrollmentCodes,
  adminApprovals,
  webauthnChallenges,
  accountCleanups,
  invoiceOpens,
  invoiceArrivalNotices,
};
