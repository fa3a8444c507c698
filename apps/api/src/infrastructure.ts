import type { Config } from './config.ts';
import { databaseTargetFor, openDatabase, type DatabaseHandle, type DatabaseTarget } from './db/client.ts';
import { raiseInvoiceRetention } from './db/invoice-retention.ts';
import { createFirebaseIdentity } from './identity/firebase-identity.ts';
import type { IdentityProvider } from './identity/identity-provider.ts';
import type { BlobStore } from './blob-store/blob-store.ts';
import { openBlobStore } from './blob-store/open-blob-store.ts';
import { openErrorReporter, type ErrorReporter } from './observability/error-reporting.ts';

/**
 * What the portal stands on, opened from one configuration: the connections and clients the domain is
 * built from (`buildDomain`). The server, the CLI, the tests and the benchmarks all open it this way.
 */
export interface Infrastructure {
  config: Config;
  database: DatabaseHandle;
  identity: IdentityProvider;
  blobStore: BlobStore;
  errorReporter: ErrorReporter;
  /** Sends queued error reports, then closes the identity provider's client, the blob store's connections and the database. */
  close(): Promise<void>;
}

export interface OpenInfrastructureOptions {
  /** Where the data lives when not where the configuration says (tests use PGlite in memory). */
  databaseTarget?: DatabaseTarget;
  /** Wraps the real identity provider, so tests can force failures at the edge. */
  wrapIdentity?: (identity: IdentityProvider) => IdentityProvider;
  /** Migrate whatever MIGRATE_ON_START says (a restore always brings its new database up to this release). */
  migrate?: boolean;
}

export async function openInfrastructure(
  config: Config,
  options: OpenInfrastructureOptions = {},
): Promise<Infrastructure> {
  const blobStore = openBlobStore(config);
  // A live upload is cut off by the request timeout, so an older temporary file is a crashed writer's.
  await blobStore.removeStaleTemporaryFiles(2 * config.http.requestTimeoutMs);
  // Without MIGRATE_ON_START, `portal migrate` (a deploy step, a Kubernetes Job) migrates, and a schema behind this release is refused.
  const database = await openDatabase(options.databaseTarget ?? databaseTargetFor(config), {
    migrate: options.migrate ?? config.migrateOnStart,
  });
  // Before anything can delete: the database refuses to drop an invoice version younger than this.
  await raiseInvoiceRetention(database.db, config.invoiceRetentionYears);
  const firebase = createFirebaseIdentity({ ...config.firebase, timeoutMs: config.identityTimeoutMs });
  const errorReporter = await openErrorReporter(config.sentry);
  return {
    config,
    database,
    identity: options.wrapIdentity ? options.wrapIdentity(firebase) : firebase,
    blobStore,
    errorReporter,
    async close() {
      await errorReporter.flush(2000);
      await firebase.close();
      blobStore.close();
      await database.close();
    },
  };
}
