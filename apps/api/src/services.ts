import type { Config } from './config.ts';
import { databaseTargetFor, openDatabase, type DatabaseHandle, type DatabaseTarget } from './db/client.ts';
import { createFirebaseIdentity } from './identity/firebase-identity.ts';
import type { IdentityProvider } from './identity/identity-provider.ts';
import type { BlobStore } from './invoices/blob-store.ts';
import { openBlobStore } from './invoices/blob-stores.ts';
import { openErrorReporter, type ErrorReporter } from './observability/error-reporting.ts';

/** What the app stands on, opened from one configuration by the server, the CLI, the tests and the benchmarks. */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  identity: IdentityProvider;
  blobStore: BlobStore;
  errorReporter: ErrorReporter;
  /** Sends queued error reports, then closes the identity provider's client and the database; the blob store holds nothing open. */
  close(): Promise<void>;
}

export interface OpenServicesOptions {
  /** Where the data lives when not where the configuration says (tests use PGlite in memory). */
  databaseTarget?: DatabaseTarget;
  /** Wraps the real identity provider, so tests can force failures at the edge. */
  wrapIdentity?: (identity: IdentityProvider) => IdentityProvider;
}

export async function openServices(config: Config, options: OpenServicesOptions = {}): Promise<Services> {
  const blobStore = openBlobStore(config);
  // A live upload is cut off by the request timeout, so an older temporary file is a crashed writer's.
  await blobStore.removeStaleTemporaryFiles(2 * config.http.requestTimeoutMs);
  const database = await openDatabase(options.databaseTarget ?? databaseTargetFor(config));
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
      await database.close();
    },
  };
}

/** Opens the services for one job (a CLI command, a seed) and closes them after, whatever happens. */
export async function withServices<T>(config: Config, run: (services: Services) => Promise<T>): Promise<T> {
  const services = await openServices(config);
  try {
    return await run(services);
  } finally {
    await services.close();
  }
}
