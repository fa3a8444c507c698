import { loadConfig, type Config } from '../config.ts';
import { databaseTargetFor, openDatabase, type DatabaseHandle } from '../db/client.ts';
import { createFirebaseIdentity } from '../identity/firebase-identity.ts';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import { createFsBlobStore, type BlobStore } from '../invoices/blob-store.ts';

export interface CliServices {
  config: Config;
  database: DatabaseHandle;
  identity: IdentityProvider;
  blobStore: BlobStore;
}

/** Opens what a CLI command needs with the same configuration the server uses, and closes it after. */
export async function withServices<T>(run: (services: CliServices) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase(databaseTargetFor(config));
  const identity = createFirebaseIdentity(config.firebase);
  try {
    return await run({ config, database, identity, blobStore: createFsBlobStore(config.invoiceDir) });
  } finally {
    await identity.close();
    await database.close();
  }
}
