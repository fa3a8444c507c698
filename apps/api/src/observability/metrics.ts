import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/client.ts';
import { currentRelease } from '../release.ts';

/** The identity provider's calls, as the API makes them (identity/identity-provider.ts). */
export const IDENTITY_OPERATIONS = [
  'verify_id_token',
  'create_user',
  'find_user_by_email',
  'delete_user',
  'revoke_sessions',
  'has_password',
  'mark_email_verified',
] as const;
export type IdentityOperation = (typeof IDENTITY_OPERATIONS)[number];

/** The invoice store's calls (blob-store/blob-store.ts); `open` is timed to the answer's head, not its last byte. */
export const BLOB_STORE_OPERATIONS = ['put', 'open', 'list', 'delete'] as const;
export type BlobStoreOperation = (typeof BLOB_STORE_OPERATIONS)[number];
export type BlobStoreKind = 'folder' | 's3';

/** What a second person is for: who may act as an administrator, and a change-guard warning cleared. */
export const ADMIN_TRUST_CHANGES = ['promotion', 'passkey-reset', 'warning-acknowledgement'] as const;
export type AdminTrustChange = (typeof ADMIN_TRUST_CHANGES)[number];

/** What EINVOICE_INVALID did with an e-invoice that breaks an EN 16931 business rule. */
export const INVALID_E_INVOICE_OUTCOMES = ['flagged', 'refused', 'accepted'] as const;
export type InvalidEInvoiceOutcome = (typeof INVALID_E_INVOICE_OUTCOMES)[number];

/**
 * How long a scrape waits for a value it reads from the database. A database that is down or slow must not
 * make /metrics hang or fail: the value is left out of that scrape (absent, never a made-up 0), and
 * everything else is still answered.
 */
export const SCRAPE_READ_TIMEOUT_MS = 2_000;

/** What the metrics read at each scrape: the pool, the allowlist cache, the writer and the database (within SCRAPE_READ_TIMEOUT_MS). */
export interface MetricsSources {
  poolUse: DatabaseHandle['poolUse'];
  /** The allowlist cache's trust in its change notices (users/allowlist-cache.ts). */
  allowlist: { isLive(): boolean; heartbeatAgeSeconds(): number };
  /** Every job queue of the background registry (background/registry.ts), each read within SCRAPE_READ_TIMEOUT_MS. */
  jobQueues(): { name: string; stats(): Promise<{ pending: number; oldestAgeSeconds: number }> }[];
  /** Migrations applied to the database. */
  migrationsApplied(): Promise<number>;
  /** Migrations this release's journal has. */
  migrationsExpected(): Promise<number>;
  /** Audit entries accepted but not yet in the database (audit/audit-writer.ts). */
  auditPending(): number;
}

/**
 * How often the event loop's delay is sampled for `nodejs_eventloop_lag_*` (ms). prom-client's default, 10,
 * is a timer waking the process 100 times a second whether it serves or not: 5-10 ms of CPU a second on this
 * project's machines, a seventh of a download's CPU at 150 downloads a second (decision 0130). At 100 a
 * 15-second scrape still holds 150 samples, enough for the p99 the dashboard shows.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/** Resolves with `read`'s value, or undefined when it fails or takes longer than `ms`. */
async function within<T>(ms: number, read: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  try {
    // Even a read that throws before its promise (a bug, a closed handle) costs the scrape one value, not all.
    return await Promise.race([
      Promise.resolve()
        .then(read)
        .catch(() => undefined),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** One read shared by the gauges of one scrape (two gauges from one query): joined while it is under way. */
function sharedPerScrape<T>(read: () => Promise<T>) {
  let underWay: Promise<T> | undefined;
  return () =>
    (underWay ??= read().finally(() => {
      underWay = undefined;
    }));
}

/**
 * A gauge read at each scrape from the database. When the read fails or is late, the gauge has no sample in
 * that scrape: an absent series is what Prometheus understands as "not known", where a 0 would say "empty".
 */
function databaseGauge(options: {
  name: string;
  help: string;
  registers: Registry[];
  read: () => Promise<number | undefined>;
}) {
  const gauge = new Gauge({ name: options.name, help: options.help, registers: options.registers });
  const full = gauge.get.bind(gauge);
  gauge.get = async () => {
    const value = await options.read();
    if (value === undefined) return { ...(await full()), values: [] };
    gauge.set(value);
    return full();
  };
  return gauge;
}

/**
 * The process's Prometheus registry and every metric the portal keeps; gauges are read from their sources at
 * each scrape. Built once in the domain, so the code that counts does not need the HTTP layer.
 * The portal's own metrics are named `portal_…` in base units (seconds, bytes), so they cannot clash with
 * another exporter's in a shared Prometheus; Node's process metrics keep their standard names.
 */
export function createMetrics(sources: MetricsSources, options: { readTimeoutMs?: number } = {}) {
  const readTimeoutMs = options.readTimeoutMs ?? SCRAPE_READ_TIMEOUT_MS;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const registers = [registry];
  const { version, revision } = currentRelease();
  // The usual info metric: always 1, its labels say which build answers (joined onto others in queries).
  new Gauge({
    name: 'portal_build_info',
    help: 'The release this instance runs: always 1, labelled with its version and git revision',
    labelNames: ['version', 'revision'] as const,
    registers,
  }).set({ version, revision }, 1);
  // Read at each scrape, from the pool itself. The two states add up to the connections open, so a sum over
  // `state` means something; requests waiting for a connection are not connections, and have a gauge of their own.
  new Gauge({
    name: 'portal_db_pool_connections',
    help: 'Database pool connections open, by state: in use (active) or idle; the states add up to the connections open',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const use = sources.poolUse();
      this.set({ state: 'active' }, use.total - use.idle);
      this.set({ state: 'idle' }, use.idle);
    },
  });
  new Gauge({
    name: 'portal_db_pool_waiting_requests',
    help: 'Queries waiting for a database pool connection',
    registers,
    collect() {
      this.set(sources.poolUse().waiting);
    },
  });
  // The LISTEN channel for allowlist changes: 0 while it is down or unproven (PostgreSQL restarting, a silent
  // connection), when every signed-in request reads its row from the database: correct, but slower.
  new Gauge({
    name: 'portal_allowlist_notifications_live',
    help: 'Whether allowlist change notices are known to arrive (1) or the allowlist cache has stepped aside (0)',
    registers,
    collect() {
      this.set(sources.allowlist.isLive() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'portal_allowlist_notifications_heartbeat_age_seconds',
    help: 'Seconds since the allowlist change notices last proved themselves (a heartbeat heard back on the LISTEN connection)',
    registers,
    collect() {
      this.set(sources.allowlist.heartbeatAgeSeconds());
    },
  });
  // Each queue read on its own: one whose read fails or is late is left out of the scrape, the others answered.
  const queues = sharedPerScrape(() =>
    Promise.all(
      sources
        .jobQueues()
        .map(async (queue) => ({ queue: queue.name, stats: await within(readTimeoutMs, queue.stats) })),
    ),
  );
  const queueGauge = (
    metric: { name: string; help: string },
    value: (stats: { pending: number; oldestAgeSeconds: number }) => number,
  ) =>
    new Gauge({
      ...metric,
      labelNames: ['queue'] as const,
      registers,
      async collect() {
        const read = await queues();
        this.reset();
        for (const { queue, stats } of read) if (stats) this.set({ queue }, value(stats));
      },
    });
  queueGauge(
    {
      name: 'portal_job_queue_pending',
      help: 'Jobs waiting in a background job queue (due or backing off), by queue',
    },
    (stats) => stats.pending,
  );
  queueGauge(
    {
      name: 'portal_job_queue_oldest_age_seconds',
      help: 'Age of the oldest job of a background job queue, in seconds (0 when the queue is empty), by queue',
    },
    (stats) => stats.oldestAgeSeconds,
  );
  // The clean-up queue's own names, from before every queue was measured alike: kept for existing dashboards.
  const cleanups = async () => (await queues()).find((read) => read.queue === 'account-cleanups')?.stats;
  databaseGauge({
    name: 'portal_account_cleanups_pending',
    help: 'Sign-in accounts of removed users still waiting to be signed out and deleted (portal_job_queue_pending{queue="account-cleanups"})',
    registers,
    read: async () => (await cleanups())?.pending,
  });
  databaseGauge({
    name: 'portal_account_cleanups_oldest_age_seconds',
    help: 'Age of the oldest pending account clean-up, in seconds (0 when none is pending)',
    registers,
    read: async () => (await cleanups())?.oldestAgeSeconds,
  });
  const jobQueueFailures = new Counter({
    name: 'portal_job_queue_failures_total',
    help: 'Tries of background jobs that failed and were put back with a back-off, by queue',
    labelNames: ['queue'] as const,
    registers,
  });
  databaseGauge({
    name: 'portal_schema_migrations_applied',
    help: 'Migrations applied to the database this instance uses',
    registers,
    read: () => within(readTimeoutMs, sources.migrationsApplied),
  });
  // The release's own count needs no database: known even while the database is down.
  databaseGauge({
    name: 'portal_schema_migrations_expected',
    help: "Migrations this instance's release brings: the database is behind the release while fewer are applied",
    registers,
    read: () => within(readTimeoutMs, sources.migrationsExpected),
  });
  new Gauge({
    name: 'portal_audit_entries_pending',
    help: "Audit entries accepted and not yet written to the audit log (the batched writer's backlog)",
    registers,
    collect() {
      this.set(sources.auditPending());
    },
  });

  const identityDuration = new Histogram({
    name: 'portal_identity_request_duration_seconds',
    help: 'Time the identity provider (Firebase Authentication) took to answer a call, by operation',
    labelNames: ['operation'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const identityErrors = new Counter({
    name: 'portal_identity_errors_total',
    help: 'Identity provider calls that failed on its side (unreachable, too slow, an internal error or quota), by operation; a refused token is not one',
    labelNames: ['operation'] as const,
    registers,
  });
  const blobStoreDuration = new Histogram({
    name: 'portal_blob_store_request_duration_seconds',
    help: 'Time the invoice store took to answer a call (for a read: until the bytes start), by store and operation',
    labelNames: ['store', 'operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const blobStoreErrors = new Counter({
    name: 'portal_blob_store_errors_total',
    help: 'Invoice store calls that failed (an absent blob is not a failure), by store and operation',
    labelNames: ['store', 'operation'] as const,
    registers,
  });
  const blobStoreThrottled = new Counter({
    name: 'portal_blob_store_throttled_total',
    help: 'Answers of the bucket that said it is overloaded (503 SlowDown or Service Unavailable), each attempt counted',
    labelNames: ['store'] as const,
    registers,
  });
  const adminTrustChanges = new Counter({
    name: 'portal_admin_trust_changes_total',
    help: 'Administrators made, passkeys reset and change-guard warnings acknowledged (the alert on them close together)',
    labelNames: ['change'] as const,
    registers,
  });
  const invalidEInvoices = new Counter({
    name: 'portal_einvoice_invalid_total',
    help: 'E-invoices that arrived with a fatal EN 16931 finding, by what EINVOICE_INVALID did with them',
    labelNames: ['outcome'] as const,
    registers,
  });
  // Both outcomes at 0 from the start: the relay's first failure must count as an increase.
  const smtpSends = new Counter({
    name: 'portal_smtp_sends_total',
    help: "Mails handed to the operator's SMTP relay, by outcome: accepted (sent) or not (failed: unreachable, refused, timed out)",
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const outcome of ['sent', 'failed'] as const) smtpSends.inc({ outcome }, 0);
  // At 0 from the start: the first promotion of an instance's life must count as an increase.
  for (const change of ADMIN_TRUST_CHANGES) adminTrustChanges.inc({ change }, 0);
  // Every outcome at 0 from the start: the first invalid e-invoice of an instance's life must be an increase.
  for (const outcome of INVALID_E_INVOICE_OUTCOMES) invalidEInvoices.inc({ outcome }, 0);
  // Every operation from the start, at 0: a rate over a series that appears only with its first error is no rate.
  for (const operation of IDENTITY_OPERATIONS) {
    identityDuration.zero({ operation });
    identityErrors.inc({ operation }, 0);
  }

  return {
    registry,
    requestDuration: new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern (never the raw URL) and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    invoiceDownloads: new Counter({
      name: 'portal_invoice_downloads_total',
      help: 'Invoices sent to a signed-in user',
      registers,
    }),
    invoiceExportCeilingRefusals: new Counter({
      name: 'portal_invoice_export_ceiling_refusals_total',
      help: 'ZIPs refused because they would take a person past INVOICE_EXPORTS_PER_DAY',
      registers,
    }),
    invoiceDownloadBytes: new Counter({
      name: 'portal_invoice_download_bytes_total',
      help: 'Bytes of invoices sent to signed-in users',
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'portal_rate_limit_refusals_total',
      help: 'Requests refused with 429 Too Many Requests, by route pattern',
      labelNames: ['route'] as const,
      registers,
    }),
    tokenCacheLookups: new Counter({
      name: 'portal_token_cache_lookups_total',
      help: 'ID-token verifications answered from the cache (hit) or by the identity provider (miss)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    auditWriteSeconds: new Histogram({
      name: 'portal_audit_write_seconds',
      help: 'Time to write one audit-log entry (how far the audit log lags the action it records)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    }),
    auditEntriesDropped: new Counter({
      name: 'portal_audit_entries_dropped_total',
      help: 'Audit entries lost because the audit log could not be written (each also logged as an error)',
      registers,
    }),
    allowlistLapses: new Counter({
      name: 'portal_allowlist_notifications_lapses_total',
      help: 'Times the allowlist cache stepped aside because its change notices stopped proving themselves',
      registers,
    }),
    adminTrustChanges,
    invalidEInvoices,
    jobQueueFailures,
    /** Zeroes the failure counts of the registry's queues: a rate over a series that appears only with its first failure is no rate. */
    queuesInUse(names: string[]) {
      for (const queue of names) jobQueueFailures.inc({ queue }, 0);
    },
    smtpSends,
    identityDuration,
    identityErrors,
    blobStoreDuration,
    blobStoreErrors,
    blobStoreThrottled,
    /** Zeroes the invoice store's series for the kind of store this instance uses. */
    storeInUse(store: BlobStoreKind) {
      for (const operation of BLOB_STORE_OPERATIONS) {
        blobStoreDuration.zero({ store, operation });
        blobStoreErrors.inc({ store, operation }, 0);
      }
      blobStoreThrottled.inc({ store }, 0);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
