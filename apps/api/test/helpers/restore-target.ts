import { loadConfig } from '../../src/config.ts';
import { openInfrastructure } from '../../src/infrastructure.ts';
import { withStoreCallsNoted } from './backend-ledger.ts';
import { invoiceStoreKind, openTestInvoiceStore } from './invoice-stores.ts';
import { testPgliteTarget } from './pglite-template.ts';
import { TEST_PROJECT_ID } from './test-app.ts';

/**
 * An empty portal to restore a backup into: a new invoice store of this pass's kind under `dir`, and a new
 * database (the PostgreSQL of `databaseUrl`, else a PGlite from the template). Closes the store when the
 * infrastructure cannot be opened.
 */
export async function openRestoreTarget(
  dir: string,
  options: { databaseUrl?: string; env?: Record<string, string> } = {},
) {
  const store = await openTestInvoiceStore(invoiceStoreKind(), dir);
  try {
    const config = loadConfig({
      FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '',
      DATA_DIR: dir,
      DATABASE_URL: options.databaseUrl ?? '',
      LOG_LEVEL: 'silent',
      ...options.env,
      ...store.env,
    });
    const infrastructure = await openInfrastructure(
      config,
      options.databaseUrl ? {} : { databaseTarget: await testPgliteTarget() },
    );
    withStoreCallsNoted(infrastructure.blobStore);
    return { store, infrastructure };
  } catch (error) {
    await store.close();
    throw error;
  }
}
