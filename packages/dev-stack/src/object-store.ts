/**
 * A local S3-compatible server (fauxqs, in this process) for the tests, the scaled topology and the
 * benchmark: the object-store twin of the invoice folder. Its objects and buckets live in `dataDir`, so a
 * test can stop it for real (connections refused) and start it again on the same port with the same data.
 * Why this server: docs/decisions/0036-invoices-in-object-storage.md.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { findFreePort } from './auth-emulator.ts';

export interface ObjectStore {
  /** http://127.0.0.1:PORT */
  endpoint: string;
  port: number;
  bucket: string;
  prefix: string;
  /**
   * The portal's configuration for this store, credentials included (the SDK's chain reads them from the
   * environment), for a test app, an instance or a CLI run.
   */
  env: Record<string, string>;
  running(): boolean;
  /** Stops listening and drops every connection: the store is down. */
  stop(): Promise<void>;
  /** Listens again on the same port with the same objects. */
  start(): Promise<void>;
}

export interface StartObjectStoreOptions {
  /** Where buckets and objects are kept (created). */
  dataDir: string;
  port?: number;
  bucket?: string;
  prefix?: string;
}

/** Any value is accepted by the local server; the portal signs its requests with them as with real keys. */
const LOCAL_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'portal-local', AWS_SECRET_ACCESS_KEY: 'portal-local-secret' };

export async function startObjectStore(options: StartObjectStoreOptions): Promise<ObjectStore> {
  const port = options.port ?? (await findFreePort());
  const bucket = options.bucket ?? 'invoices';
  const prefix = options.prefix ?? 'portal';
  const stateDir = path.join(options.dataDir, 'state');
  const objectsDir = path.join(options.dataDir, 'objects');
  await mkdir(stateDir, { recursive: true });
  await mkdir(objectsDir, { recursive: true });
  let server: FauxqsServer | undefined;

  const start = async () => {
    if (server) return;
    server = await startFauxqs({
      port,
      host: '127.0.0.1',
      logger: false,
      dataDir: stateDir,
      s3StorageDir: objectsDir,
    });
    server.createBucket(bucket);
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    port,
    bucket,
    prefix,
    env: {
      INVOICE_STORE: `s3://${bucket}/${prefix}`,
      INVOICE_STORE_ENDPOINT: endpoint,
      INVOICE_STORE_REGION: 'us-east-1',
      INVOICE_STORE_PATH_STYLE: 'true',
      ...LOCAL_CREDENTIALS,
      // The credential chain would otherwise ask the cloud's instance metadata service when keys are missing.
      AWS_EC2_METADATA_DISABLED: 'true',
    },
    running: () => server !== undefined,
    async stop() {
      const stopping = server;
      server = undefined;
      await stopping?.stop();
    },
    start,
  };
}
