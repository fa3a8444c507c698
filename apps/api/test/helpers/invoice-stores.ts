import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startObjectStore, type ObjectStore } from '@portal/dev-stack';
import type { BlobStore } from '../../src/blob-store/blob-store.ts';
import { openBlobStore } from '../../src/blob-store/open-blob-store.ts';
import { loadConfig } from '../../src/config.ts';
import { filesUnder } from './fixtures.ts';
import { withStoreCallsNoted } from './backend-ledger.ts';

/**
 * Which invoice store this test process runs on: the folder (default) or the object store, which the test
 * runner selects for a third pass over every invoice test (TEST_INVOICE_STORE=object).
 */
export type InvoiceStoreKind = 'folder' | 'object';
export const invoiceStoreKind = (): InvoiceStoreKind =>
  process.env.TEST_INVOICE_STORE === 'object' ? 'object' : 'folder';

export interface TestInvoiceStore {
  kind: InvoiceStoreKind;
  /** The portal's environment for this store (INVOICE_DIR, or INVOICE_STORE and its endpoint and keys). */
  env: Record<string, string>;
  /** The local S3 server, for tests that stop it. */
  objectStore?: ObjectStore;
  /** Where a blob of this store lives, as contents() names it. */
  entryOf(sha256: string): string;
  /** A blob store on this store, configured as the portal would be from `env`. */
  open(): BlobStore;
  /** Replaces a blob's bytes behind the portal's back, as a damaged disk or a careless hand would. */
  damage(sha256: string, bytes: Buffer): Promise<void>;
  /** The SHA-256 checksum (base64) the bucket recorded for a blob; undefined for the folder. */
  recordedChecksum(sha256: string): Promise<string | undefined>;
  /**
   * Everything the store holds, temporary files included (the folder's tmp/, the upload spool), as sorted
   * relative names: a test compares it before and after to see that nothing was left behind.
   */
  contents(): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts the store of `kind` under `dir` (for the object store: a local S3 server of its own). */
export async function openTestInvoiceStore(kind: InvoiceStoreKind, dir: string): Promise<TestInvoiceStore> {
  const spoolDir = path.join(dir, 'spool');
  if (kind === 'folder') {
    const invoiceDir = path.join(dir, 'invoices');
    const env = { INVOICE_DIR: invoiceDir, INVOICE_STORE: '' };
    return {
      kind,
      env,
      entryOf: (sha256) => path.join(sha256.slice(0, 2), sha256),
      open: () => withStoreCallsNoted(openBlobStore(configFor(env))),
      damage: (sha256, bytes) => writeFile(path.join(invoiceDir, sha256.slice(0, 2), sha256), bytes),
      recordedChecksum: async () => undefined,
      contents: () => filesUnder(invoiceDir),
      close: async () => {},
    };
  }
  const objectStore = await startObjectStore({ dataDir: path.join(dir, 's3') });
  // The SDK reads its keys from the process's environment (the standard credential chain), not from the
  // portal's configuration; every local store has the same ones.
  for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_EC2_METADATA_DISABLED']) {
    process.env[name] = objectStore.env[name];
  }
  // Its own client, so what the test sees does not depend on the portal's.
  const client = new S3Client({
    endpoint: objectStore.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: objectStore.env.AWS_ACCESS_KEY_ID!,
      secretAccessKey: objectStore.env.AWS_SECRET_ACCESS_KEY!,
    },
  });
  const env = { ...objectStore.env, INVOICE_SPOOL_DIR: spoolDir, INVOICE_STORE_TIMEOUT_MS: '1500' };
  return {
    kind,
    env,
    objectStore,
    entryOf: (sha256) => `${objectStore.prefix}/${sha256.slice(0, 2)}/${sha256}`,
    open: () => withStoreCallsNoted(openBlobStore(configFor(env))),
    async damage(sha256, bytes) {
      const Key = `${objectStore.prefix}/${sha256.slice(0, 2)}/${sha256}`;
      await client.send(new PutObjectCommand({ Bucket: objectStore.bucket, Key, Body: bytes }));
    },
    async recordedChecksum(sha256) {
      const Key = `${objectStore.prefix}/${sha256.slice(0, 2)}/${sha256}`;
      const head = await client.send(
        new HeadObjectCommand({ Bucket: objectStore.bucket, Key, ChecksumMode: 'ENABLED' }),
      );
      return head.ChecksumSHA256;
    },
    async contents() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: objectStore.bucket, ...(token ? { ContinuationToken: token } : {}) }),
        );
        keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      const spooled = await readdir(spoolDir).catch(() => [] as string[]);
      return [...keys, ...spooled.map((name) => `spool/${name}`)].sort();
    },
    async close() {
      client.destroy();
      await objectStore.stop();
    },
  };
}

const configFor = (env: Record<string, string>) =>
  loadConfig({ FIREBASE_PROJECT_ID: 'demo-store-test', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9', ...env });
