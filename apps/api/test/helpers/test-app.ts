import { after, before, beforeEach } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createSoftwareAuthenticator,
  enrollPasskey,
  STEP_UP_HEADER,
  stepUpSecretFrom,
  type PortalCall,
  type SoftwareAuthenticator,
} from '@portal/dev-stack/passkeys';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Database, DatabaseHandle } from '../../src/db/client.ts';
import { buildDomain, type Domain } from '../../src/domain.ts';
import type { IdentityProvider } from '../../src/identity/identity-provider.ts';
import { openInfrastructure, type Infrastructure } from '../../src/infrastructure.ts';
import type { BlobStore } from '../../src/blob-store/blob-store.ts';
import { createLogger } from '../../src/observability/logging.ts';
import type { ErrorReporter } from '../../src/observability/error-reporting.ts';
import {
  invoiceStoreKind,
  openTestInvoiceStore,
  type InvoiceStoreKind,
  type TestInvoiceStore,
} from './invoice-stores.ts';
import { withStoreCallsNoted } from './backend-ledger.ts';
import { testPgliteTarget } from './pglite-template.ts';
import { emulator, signUp } from './tokens.ts';

export const TEST_PROJECT_ID = process.env.FIREBASE_PROJECT_ID ?? 'demo-portal-test';

export interface TestContext {
  app: FastifyInstance;
  domain: Domain;
  config: Config;
  database: DatabaseHandle;
  identity: IdentityProvider;
  blobStore: BlobStore;
  errorReporter: ErrorReporter;
  dataDir: string;
  /** The invoice store this file runs on (folder or object store), and what it holds. */
  invoiceStore: TestInvoiceStore;
  /**
   * Creates an emulator account (and, unless `allowlisted: false`, its allowlist row); returns its ID token.
   * An admin or finance user also sets up a passkey through the portal's endpoints, as on their first visit
   * to the admin or Invoices page, so their calls are accepted for ADMIN_STEP_UP_MAX_AGE_SECONDS (`stepUp:
   * false` skips it);
   * `passkey` is the authenticator that holds it, to confirm again later.
   */
  createAccount(
    email: string,
    options?: { admin?: boolean; finance?: boolean; allowlisted?: boolean; activated?: boolean; stepUp?: boolean },
  ): Promise<{ uid: string; idToken: string; refreshToken: string; passkey: SoftwareAuthenticator }>;
  /**
   * The headers of a call as the holder of `idToken`: the bearer token, and the step-up secret the last
   * ceremony made through `callAs(idToken)` answered with (as the browser that did it would send its cookie).
   */
  bearer(idToken: string): Record<string, string>;
  /** Calls the app as the holder of `idToken`, for the passkey ceremonies in dev-stack. */
  callAs(idToken: string): PortalCall;
  /** Issues a one-time enrollment code for an administrator's first passkey, as the CLI would. */
  enrollmentCode(email: string): Promise<string>;
}

/**
 * The tests' limit for one database statement, instead of production's 3 s: on a busy 2-core CI machine, with
 * four test slots on one PostgreSQL, an ordinary statement (a truncate, a 5,000-row delete) took longer than
 * 3 s. The tests of the limit itself, the database fault tests, set production's value themselves.
 */
export const BUSY_MACHINE_QUERY_TIMEOUT_MS = 30_000;

/** Production's limit for one statement (the configuration's default), for the tests that measure against it. */
export const PRODUCTION_QUERY_TIMEOUT = {
  DATABASE_QUERY_TIMEOUT_MS: String(
    loadConfig({ FIREBASE_PROJECT_ID: 'demo-defaults', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9' }).databaseTimeouts
      .queryMs,
  ),
};

/** Where `app.inject` says requests come from (Host: localhost:80): the origin passkeys are used on in tests. */
export const INJECT_ORIGIN = 'http://localhost:80';

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Wraps the real identity provider, to force failures at the edge. */
  wrapIdentity?: (identity: IdentityProvider) => IdentityProvider;
  /** Receives every log line (JSON) at level info and above, instead of silence. */
  logTo?: (line: string) => void;
  /** The invoice store, when a file tests one of them only; by default the one of the test pass. */
  invoiceStore?: InvoiceStoreKind;
}

/**
 * One app per test file on PGlite in memory, or on the PostgreSQL in DATABASE_URL; every test starts
 * from empty tables and no emulator accounts, so tests never depend on each other.
 */
export function useTestApp(options: TestAppOptions = {}): TestContext {
  const context = {} as TestContext;
  let infrastructure: Infrastructure | undefined;
  /** ID token → the step-up secret its last ceremony answered with: the test's stand-in for a cookie jar. */
  const stepUpSecrets = new Map<string, string>();

  before(async () => {
    context.dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-api-test-'));
    context.invoiceStore = await openTestInvoiceStore(options.invoiceStore ?? invoiceStoreKind(), context.dataDir);
    context.config = loadConfig({
      FIREBASE_PROJECT_ID: TEST_PROJECT_ID,
      FIREBASE_AUTH_EMULATOR_HOST: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '',
      DATA_DIR: context.dataDir,
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: path.join(context.dataDir, 'no-web-build'),
      DATABASE_QUERY_TIMEOUT_MS: String(BUSY_MACHINE_QUERY_TIMEOUT_MS),
      ...context.invoiceStore.env,
      ...options.env,
    });
    infrastructure = await openInfrastructure(context.config, {
      // PGlite in memory unless the pass runs on PostgreSQL: fast, and gone with the process.
      ...(context.config.databaseUrl ? {} : { databaseTarget: await testPgliteTarget() }),
      ...(options.wrapIdentity ? { wrapIdentity: options.wrapIdentity } : {}),
    });
    withStoreCallsNoted(infrastructure.blobStore);
    Object.assign(context, {
      database: infrastructure.database,
      identity: infrastructure.identity,
      blobStore: infrastructure.blobStore,
      errorReporter: infrastructure.errorReporter,
    });
    const logTo = options.logTo;
    const log = logTo
      ? createLogger({ logLevel: 'info' }, { write: logTo })
      : createLogger({ logLevel: context.config.logLevel });
    context.domain = buildDomain(infrastructure, { log });
    await context.domain.start();
    context.app = await createApp(context.domain, log);
    await context.app.ready();
  });

  beforeEach(async () => {
    // Entries and counts the previous test queued would otherwise land in this test's empty tables (the limits'
    // own timer sends counts twice a second; flush waits for a send already under way). Every limit: a search
    // counted in the last half second, sent after the truncate, spent the next test's allowance of that address.
    await context.app.domain.auditWriter.flush();
    await context.app.domain.rateLimits.flush();
    await emptyTables(context.database.db);
    // The limits count in memory too (batched-limit.ts): emptied with the table they feed.
    context.app.domain.rateLimits.reset();
    stepUpSecrets.clear();
    await emulator().clearAccounts(TEST_PROJECT_ID);
  });

  after(async () => {
    await context.app?.close();
    await context.domain?.close();
    await infrastructure?.close();
    await context.invoiceStore?.close();
    await rm(context.dataDir, { recursive: true, force: true });
  });

  context.createAccount = async (
    email,
    { admin = false, finance = false, allowlisted = true, activated = true, stepUp = true } = {},
  ) => {
    const account = await signUp(email);
    const passkey = createSoftwareAuthenticator({ origin: INJECT_ORIGIN });
    if (allowlisted) {
      await context.app.domain.users.insert({
        email,
        admin,
        finance,
        activated,
        registered: true,
        firebaseUid: account.uid,
      });
    }
    if (allowlisted && (admin || finance) && stepUp) {
      const enrollmentCode = await context.enrollmentCode(email);
      await enrollPasskey(context.callAs(account.idToken), passkey, { enrollmentCode });
    }
    return { ...account, passkey };
  };
  context.enrollmentCode = async (email) =>
    (await context.domain.passkeys.issueEnrollmentCode({ email, actor: 'cli:test' })).code;
  context.bearer = (idToken) => {
    const secret = stepUpSecrets.get(idToken);
    return { authorization: `Bearer ${idToken}`, ...(secret === undefined ? {} : { [STEP_UP_HEADER]: secret }) };
  };
  context.callAs = (idToken) => async (method, url, body) => {
    const response = await context.app.inject({
      method,
      url,
      headers: context.bearer(idToken),
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const setCookie = response.headers['set-cookie'];
    const secret = stepUpSecretFrom(setCookie === undefined ? [] : [setCookie].flat());
    if (secret !== undefined) stepUpSecrets.set(idToken, secret);
    return { status: response.statusCode, body: response.body ? (response.json() as unknown) : undefined };
  };
  return context;
}

const EVERY_TABLE = sql`truncate table users, invoices, invoice_versions, invoice_warnings, audit_log, rate_limit_windows, admin_passkeys, admin_step_ups, admin_confirmations, admin_enrollment_codes, admin_approvals, webauthn_challenges, account_cleanups, invoice_opens, invoice_arrival_notices, invoice_sellers, invoice_buyers restart identity`;

/**
 * Truncating locks the tables one after another. A transaction of the app's still under way (a background
 * job's, or one a previous test's request began) may hold one of them and then lock rows of another
 * (`select … for update`), and PostgreSQL ends one side as a deadlock, as it would any two transactions.
 * Seen in a single CI run on a busy machine. The truncate is the side to try again.
 */
async function emptyTables(db: Database) {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.execute(EVERY_TABLE);
      return;
    } catch (error) {
      const code = ((error as Error).cause as { code?: string } | undefined)?.code;
      if (code !== '40P01' || attempt === 5) throw error;
    }
  }
}
