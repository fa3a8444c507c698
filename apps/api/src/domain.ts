import { createAuditRepository } from './audit/repository.ts';
import { createAuditTrail } from './audit/audit-trail.ts';
import { AUDIT_FLUSH_MS, createAuditWriter } from './audit/audit-writer.ts';
import { createBackgroundRegistry } from './background/registry.ts';
import type { Config } from './config.ts';
import { createTokenCache } from './identity/token-cache.ts';
import type { Infrastructure } from './infrastructure.ts';
import { openInfrastructure, type OpenInfrastructureOptions } from './infrastructure.ts';
import { ingestInvoice, type IngestInput } from './invoices/ingest.ts';
import { createInvoiceAccess } from './invoices/invoice-access.ts';
import { createWarningAcknowledger } from './invoices/acknowledge-warning.ts';
import { createInvoiceWarningsRepository } from './invoices/warnings-repository.ts';
import { createIngestSlots } from './invoices/ingest-slots.ts';
import { createInvoiceReaderPool, DEFAULT_READER_POOL_OPTIONS } from './invoices/e-invoice/reader-pool.ts';
import { createEnrollmentCodes } from './passkeys/enrollment-codes.ts';
import { createPasskeyCeremonies } from './passkeys/passkey-ceremonies.ts';
import { createPasskeyRepository } from './passkeys/passkey-repository.ts';
import { createSessionBoundStore } from './passkeys/session-bound-store.ts';
import { createSessionEnder } from './sessions/end-sessions.ts';
import { createInvoicesRepository } from './invoices/repository.ts';
import { createInvoiceSearchRepository } from './invoices/search-repository.ts';
import { createInvoiceZip } from './invoices/invoice-zip.ts';
import { createAuditedInvoiceSearch } from './invoices/audited-search.ts';
import { createRecentInvoices, RECENT_INVOICES_FLUSH_MS } from './invoices/recent-invoices.ts';
import { createArrivalNoticesRepository } from './notifications/arrival-notices.ts';
import { createArrivalNotifier, NOTICE_EXPIRY_MS } from './notifications/arrival-notifier.ts';
import { createSmtpMailer } from './notifications/mailer.ts';
import { readMigrationJournal, schemaLevel } from './db/client.ts';
import { measuredBlobStore, measuredIdentity, measuredMailer } from './observability/dependency-metrics.ts';
import { createAdminApprovals } from './approvals/admin-approvals.ts';
import { createApprovalsRepository } from './approvals/approvals-repository.ts';
import { createMetrics } from './observability/metrics.ts';
import { createRateLimits, LIMIT_FLUSH_MS } from './rate-limits/rate-limits.ts';
import { createRateLimitStore } from './rate-limits/rate-limit-store.ts';
import { ALLOWLIST_CHANNEL, createAllowlistCache } from './users/allowlist-cache.ts';
import { createCompanySignIn } from './sso/company-sign-in.ts';
import { createFindUserByEmail, createUsersRepository } from './users/repository.ts';
import { createAccountCleaner } from './users/account-cleaner.ts';
import { createAccountCleanupsRepository } from './users/account-cleanups.ts';
import { createBulkUserAdmin } from './users/bulk-user-admin.ts';
import { createUserAdmin } from './users/user-admin.ts';
import { createFinanceRole } from './users/finance-role.ts';
import { createProvisioning } from './scim/provisioning.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Where the domain reports what goes wrong in the background (a pino logger in the server and tests). */
export interface DomainLog {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * The portal's domain, built from the infrastructure in dependency order: every repository, cache, limiter
 * and service exactly once, for the HTTP app, the CLI, the seed, the tests and the benchmarks alike. No
 * part reaches another through the web framework, so the order below is the only start-up order there is.
 *
 * Everything it does off a request is in one registry (`background`, background/registry.ts): `start()`
 * starts it (the server, the tests); a one-off job (a CLI command) does not, and then nothing runs. `close()`
 * stops it and makes the writers' last write; it leaves the infrastructure open, since whoever opened that
 * closes it.
 */
export function buildDomain(infrastructure: Omit<Infrastructure, 'close'>, options: { log: DomainLog }) {
  const { config, database, errorReporter } = infrastructure;
  const { log } = options;
  const { db } = database;

  const allowlist = createAllowlistCache(createFindUserByEmail(db), {
    onStepAside: () => metrics.allowlistLapses.inc(),
  });
  let migrationsExpected: Promise<number> | undefined;
  // Read at each scrape; the repositories they name are built below, before anything can scrape.
  const metrics = createMetrics({
    poolUse: database.poolUse,
    allowlist,
    jobQueues: () => background.queues(),
    migrationsApplied: async () => (await schemaLevel(db)).applied,
    migrationsExpected: () => (migrationsExpected ??= readMigrationJournal().then((journal) => journal.length)),
    auditPending: () => auditWriter.pending(),
  });
  // Every call to the identity provider and the invoice store is timed and its failures counted.
  const identity = measuredIdentity(infrastructure.identity, metrics);
  const blobStore = measuredBlobStore(infrastructure.blobStore, metrics);
  const tokenCache = createTokenCache({
    recheckMs: config.tokenRecheckMs,
    outageGraceMs: config.tokenOutageGraceMs,
    onLookup: (outcome) => metrics.tokenCacheLookups.inc({ outcome }),
  });
  // Writes through this process are forgotten by its cache at once, before the database's notice comes back.
  const users = createUsersRepository(db, { onChanged: allowlist.onNotify });
  const audit = createAuditRepository(db, { onWritten: (seconds) => metrics.auditWriteSeconds.observe(seconds) });
  const auditWriter = createAuditWriter({
    repository: audit,
    log,
    onDropped: (entries) => metrics.auditEntriesDropped.inc(entries),
  });
  const invoices = createInvoicesRepository(db);
  // An acknowledgement changes the current row's marks: the download path's cached copy is dropped with it.
  const invoiceWarnings = createInvoiceWarningsRepository(db, {
    onChanged: (parcelCode) => invoices.evict(parcelCode),
  });
  const rateLimits = createRateLimits(createRateLimitStore(db), config.rateLimits, log, {
    instances: config.instances,
  });
  const forgetSessions = (uid: string) => tokenCache.evictUid(uid);
  const onFailure = (queue: string) => metrics.jobQueueFailures.inc({ queue });
  const auditTrail = createAuditTrail({ repository: audit, writer: auditWriter, log });
  const accountCleanups = createAccountCleanupsRepository(db);
  const accountCleaner = createAccountCleaner({
    cleanups: accountCleanups,
    users,
    identity,
    audit: auditTrail,
    forgetSessions,
    log,
    onFailure,
  });
  const sessions = createSessionEnder({
    identity,
    findUser: (email) => users.findByEmail(email),
    audit: auditTrail,
    forgetSessions,
  });
  const userAdmin = createUserAdmin({
    users,
    audit: auditTrail,
    identity,
    cleaner: accountCleaner,
    forgetSessions,
    sessions,
    log,
    directoryRoles: config.scim?.assignableRoles ?? [],
  });
  const passkeys = createPasskeyCeremonies({
    passkeys: createPasskeyRepository(db),
    store: createSessionBoundStore(db),
    enrollmentCodes: createEnrollmentCodes(db),
    audit: auditTrail,
    findUser: (email) => users.findByEmail(email),
    endSessions: (input) => sessions.endSessionsOf(input),
    stepUpMaxAgeMs: config.adminStepUpMaxAgeMs,
    privilegedSessionMaxAgeMs: Math.max(config.sessionLifetimes.adminMs, config.sessionLifetimes.financeMs),
    privilegedIdleMs: config.sessionLifetimes.privilegedIdleMs,
  });
  // Promotions, passkey resets and fresh enrollment codes wait for a second administrator wherever one could look.
  const adminApprovals = createAdminApprovals({
    approvals: createApprovalsRepository(db),
    findUser: (email) => users.findByEmail(email),
    setAdmin: (input) => userAdmin.setAdmin(input),
    codeForNewAdmin: (input) => passkeys.codeForNewAdmin(input),
    resetPasskeys: (input) => passkeys.resetPasskeys(input),
    issueEnrollmentCode: (input) => passkeys.issueEnrollmentCode(input),
    passkeyCount: (email) => passkeys.passkeyCount(email),
    audit: auditTrail,
    onChanged: (change) => metrics.adminTrustChanges.inc({ change }),
    log,
  });
  // Single sign-on admitted to one row: the company's domains, a verified address, the bound subject.
  const companySignIn = config.sso
    ? createCompanySignIn({
        sso: config.sso,
        allowedDomains: config.ssoAllowedDomains,
        users,
        identity,
        audit: auditTrail,
        log,
      })
    : undefined;
  // The finance role reads every invoice: whoever gives it receives the code for the person's first passkey.
  const financeRole = createFinanceRole({ userAdmin, passkeys });
  // The company directory's SCIM calls, through the same user admin and session ender as the admin screen.
  const provisioning = createProvisioning({
    users,
    userAdmin,
    rules: config.scim ?? { emailDomains: [], assignableRoles: [] },
  });
  // Many addresses at once through the same user admin: one way to add or remove a user.
  const bulkUserAdmin = createBulkUserAdmin({ userAdmin, log });
  const recentInvoices = createRecentInvoices(db, {
    log: (error) => log.warn({ err: error }, 'could not note the recently opened invoices'),
  });
  const invoiceAccess = createInvoiceAccess({
    invoices,
    // Off the answer's path: a list that misses one open is better than an invoice answered late.
    onOpened: (user, parcelCode) => recentInvoices.recordOpen(user, parcelCode),
    blobStore,
    rateLimits,
    audit: auditTrail,
    metrics,
    warnings: invoiceWarnings,
    delivery: config.invoiceDelivery,
  });
  // The Invoices page (finance role): search the current invoices, and download many at once.
  const invoiceSearch = createInvoiceSearchRepository(db);
  // Every search by a person is audited and counted against their allowance.
  const auditedInvoiceSearch = createAuditedInvoiceSearch({
    search: invoiceSearch,
    rateLimits,
    audit: auditTrail,
    log,
  });
  const invoiceZip = createInvoiceZip({
    search: invoiceSearch,
    blobStore,
    rateLimits,
    audit: auditTrail,
    metrics,
    log,
  });
  const acknowledgeInvoiceWarning = createWarningAcknowledger({
    warnings: invoiceWarnings,
    audit: auditTrail,
    adminGrantOf: (email) => users.findByEmail(email),
    onAcknowledged: () => metrics.adminTrustChanges.inc({ change: 'warning-acknowledgement' }),
  });
  // One reader process per upload slot: a slot never waits for a reader, and no more are ever started.
  const invoiceReaders = createInvoiceReaderPool({
    ...DEFAULT_READER_POOL_OPTIONS,
    size: config.maxConcurrentIngests,
    timeoutMs: config.invoiceReadTimeoutMs,
    maxRssMb: config.invoiceReaderMemoryMb,
    // The rest of the ceiling is PDF.js's code, buffers and native memory, which the heap does not hold.
    maxHeapMb: config.invoiceReaderMemoryMb - 128,
  });
  const ingestSlots = createIngestSlots(config.maxConcurrentIngests);
  const arrivalNotices = createArrivalNoticesRepository(db);
  const arrivalNotifier = createArrivalNotifier({
    notices: arrivalNotices,
    mailer: config.mail ? measuredMailer(createSmtpMailer(config.mail), metrics) : undefined,
    users,
    invoices,
    audit: auditTrail,
    productName: config.theme.productName,
    log,
    onFailure,
  });
  const ingest = async (input: IngestInput) => {
    const stored = await ingestInvoice(
      {
        blobStore,
        invoicesRepository: invoices,
        audit: auditTrail,
        maxBytes: config.maxInvoiceBytes,
        readInvoice: invoiceReaders.read,
        ingestSlots,
        invalidEInvoices: config.eInvoiceInvalid,
        onInvalidEInvoice: (outcome) => metrics.invalidEInvoices.inc({ outcome }),
      },
      input,
    );
    // The version's transaction queued any mail it owes; sending it is the notifier's, never the upload's.
    if (stored.status !== 'unchanged') arrivalNotifier.wake();
    return stored;
  };

  const expireAudit = () =>
    audit
      .deleteOlderThan(new Date(Date.now() - config.auditRetentionDays * DAY_MS))
      .catch((error: unknown) => log.error({ err: error }, 'could not expire old audit entries'));

  // Everything off a request, in start-up order; shutdown goes backwards: the queues' workers stop before the
  // writers make their last write, and those before the allowlist's connection and the reader processes close.
  const background = createBackgroundRegistry({ log });
  background.resource('invoice-readers', () => invoiceReaders.close());
  background.listener('allowlist-notifications', () => database.listen(ALLOWLIST_CHANNEL, allowlist));
  background.writer('rate-limits', rateLimits, LIMIT_FLUSH_MS);
  background.writer(
    'recent-invoices',
    { flush: recentInvoices.writeDue, close: recentInvoices.close },
    RECENT_INVOICES_FLUSH_MS,
  );
  background.writer('audit', auditWriter, AUDIT_FLUSH_MS);
  background.every('rate-limit-sweep', MINUTE_MS, rateLimits.sweep);
  background.every('audit-retention', 60 * MINUTE_MS, expireAudit, { runAtStart: true });
  background.resource('mail-relay', () => arrivalNotifier.close());
  background.queue(accountCleaner);
  background.queue(arrivalNotifier, { enabled: arrivalNotifier.enabled });
  if (arrivalNotifier.enabled)
    background.every('arrival-request-expiry', NOTICE_EXPIRY_MS, arrivalNotifier.expireRequests);
  metrics.queuesInUse(background.queues().map((queue) => queue.name));

  return {
    config,
    database,
    identity,
    blobStore,
    errorReporter,
    metrics,
    tokenCache,
    allowlist,
    users,
    audit,
    auditWriter,
    auditTrail,
    invoices,
    invoiceWarnings,
    acknowledgeInvoiceWarning,
    rateLimits,
    accountCleanups,
    accountCleaner,
    userAdmin,
    financeRole,
    passkeys,
    adminApprovals,
    sessions,
    companySignIn,
    bulkUserAdmin,
    provisioning,
    invoiceAccess,
    invoiceSearch,
    auditedInvoiceSearch,
    invoiceZip,
    recentInvoices,
    arrivalNotices,
    arrivalNotifier,
    invoiceReaders,
    ingestSlots,
    ingestInvoice: ingest,
    background,

    start: () => background.start(),
    close: () => background.close(),
  };
}

export type Domain = ReturnType<typeof buildDomain>;

/**
 * Opens the infrastructure, builds the domain on it, runs one job (a CLI command, a seed, a benchmark's
 * set-up) and closes both after, whatever happens. The job runs without the background work: nothing of the
 * registry is started, and closing makes only the writers' last write.
 */
export async function withDomain<T>(
  config: Config,
  run: (domain: Domain) => Promise<T>,
  options: OpenInfrastructureOptions & { log?: DomainLog } = {},
): Promise<T> {
  const infrastructure = await openInfrastructure(config, options);
  const domain = buildDomain(infrastructure, { log: options.log ?? stderrLog });
  try {
    return await run(domain);
  } finally {
    await domain.close();
    await infrastructure.close();
  }
}

const stderrLog: DomainLog = {
  error: (_details, message) => process.stderr.write(`error: ${message}\n`),
  warn: (_details, message) => process.stderr.write(`warning: ${message}\n`),
};
