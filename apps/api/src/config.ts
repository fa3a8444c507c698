import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { currentRelease } from './release.ts';
import { DEFAULT_THEME } from '@portal/contract/theme';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const CIDR = /^[\da-f.:]+(\/\d{1,3})?$/i;

/**
 * Which proxies may name the client in X-Forwarded-For: none (empty or "false"), the nearest N hops, or the
 * listed addresses/networks. Never all: a client could then pick its own address and budget.
 */
function parseTrustProxy(value: string): false | number | string[] | 'invalid' {
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const valid = entries.every((entry) => {
    const [address = '', bits] = entry.split('/');
    if (!CIDR.test(entry) || isIP(address) === 0) return false;
    return bits === undefined || Number(bits) <= (isIP(address) === 4 ? 32 : 128);
  });
  return valid ? entries : 'invalid';
}

/** A timeout: at least 100 ms (anything shorter is a typo), at most ten minutes. */
const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(600_000).default(fallback);

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #0b5fa5');

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    INSTANCES: z.coerce.number().int().min(1).default(1),
    INVOICE_DELIVERY: z.enum(['direct', 'x-accel-redirect']).default('direct'),
    HOST: z.string().default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
    DATABASE_URL: optionalString.pipe(
      z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
    ),
    INVOICE_DIR: optionalString,
    MAX_INVOICE_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(10 * 1024 * 1024),
    INGEST_TOKEN: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    METRICS_TOKEN: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    FIREBASE_PROJECT_ID: z.string().regex(/^[a-z0-9-]{4,40}$/, 'must be a Firebase project id'),
    FIREBASE_API_KEY: optionalString,
    FIREBASE_AUTH_DOMAIN: optionalString,
    FIREBASE_AUTH_EMULATOR_HOST: optionalString.pipe(
      z
        .string()
        .regex(/^[\w.-]+:\d+$/, 'must be host:port')
        .optional(),
    ),
    SENTRY_DSN: optionalString.pipe(z.url('must be a Sentry DSN URL').optional()),
    SENTRY_ENVIRONMENT: z.string().default('L1'),
    SUPPORT_CONTACT: z.string().min(1).default('the UK IT team'),
    SUPPORT_EMAIL: optionalString.pipe(z.email('must be an e-mail address').optional()),
    SUPPORT_PHONE: optionalString.pipe(
      z
        .string()
        .regex(/^\+?[\d ()-]{5,24}$/, 'must be a phone number (digits, spaces, + ( ) -)')
        .optional(),
    ),
    PRODUCT_NAME: z.string().trim().min(1).default(DEFAULT_THEME.productName),
    THEME_PRIMARY_COLOR: hexColour.default(DEFAULT_THEME.primaryColor),
    THEME_HEADER_COLOR: hexColour.default(DEFAULT_THEME.headerColor),
    LOGO_URL: optionalString.pipe(
      z
        .string()
        .regex(/^(\/|https:\/\/)\S+$/, 'must be a path on this server (/...) or an https:// URL')
        .optional(),
    ),
    WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'apps/web/dist')),
    TRUST_PROXY: z
      .string()
      .trim()
      .default('')
      .transform((value, ctx) => {
        const trust = parseTrustProxy(value);
        if (trust === 'invalid') {
          ctx.addIssue({
            code: 'custom',
            message:
              'must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy addresses/CIDRs (e.g. 10.0.0.0/8); "true" would trust any client\'s own X-Forwarded-For',
          });
          return z.NEVER;
        }
        return trust;
      }),
    TOKEN_RECHECK_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    RATE_LIMIT_LOOKUPS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    RATE_LIMIT_DOWNLOADS_PER_HOUR: z.coerce.number().int().min(1).default(600),
    RATE_LIMIT_UNKNOWN_PARCELS_PER_HOUR: z.coerce.number().int().min(1).default(60),
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(400),
    TOKEN_OUTAGE_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(900),
    IDENTITY_TIMEOUT_MS: milliseconds(3000),
    DATABASE_CONNECT_TIMEOUT_MS: milliseconds(2000),
    DATABASE_QUERY_TIMEOUT_MS: milliseconds(3000),
    HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds(60_000),
    HTTP_IDLE_TIMEOUT_MS: milliseconds(30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(5000),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(5000),
  })
  .superRefine((env, ctx) => {
    if (env.FIREBASE_AUTH_EMULATOR_HOST && !env.FIREBASE_PROJECT_ID.startsWith('demo-')) {
      // The emulator accepts unsigned tokens: pointing a real project at it would let anyone in.
      ctx.addIssue({
        code: 'custom',
        path: ['FIREBASE_PROJECT_ID'],
        message:
          'must begin with "demo-" while FIREBASE_AUTH_EMULATOR_HOST is set (the emulator does not check token signatures)',
      });
    }
    if (!env.DATABASE_URL && (env.NODE_ENV === 'production' || env.INSTANCES > 1)) {
      // PGlite lives in one process's memory and its lock cannot tell two containers apart.
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: `is required when ${env.INSTANCES > 1 ? `INSTANCES is ${env.INSTANCES}` : 'NODE_ENV is production'}: the embedded database (PGlite) serves one development process only`,
      });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
      });
    }
    if (!env.FIREBASE_AUTH_EMULATOR_HOST && !env.FIREBASE_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['FIREBASE_API_KEY'], message: 'is required outside emulator mode' });
    }
  });

export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/**
 * Reads every variable at once so an operator sees all mistakes in one go, not one per restart. A variable
 * set to the empty string counts as unset: .env.example used as an env file (compose's env_file, a
 * ConfigMap) has every name, most of them empty, and `WEB_DIST_DIR=` must not mean the current folder.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const result = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`);
  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST;
  if (emulatorHost && emulatorHost.trim() === '') {
    // firebase-admin reads the variable itself and takes any non-empty value as "emulator: skip signatures".
    problems.push(
      'FIREBASE_AUTH_EMULATOR_HOST is blank but set: firebase-admin would stop checking token signatures; unset it or give host:port',
    );
  }
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  return toConfig(result.data);
}

function toConfig(env: z.infer<typeof envSchema>) {
  return {
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    instances: env.INSTANCES,
    invoiceDelivery: env.INVOICE_DELIVERY,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    invoiceDir: path.resolve(env.INVOICE_DIR ?? path.join(env.DATA_DIR, 'invoices')),
    maxInvoiceBytes: env.MAX_INVOICE_BYTES,
    ingestToken: env.INGEST_TOKEN,
    metricsToken: env.METRICS_TOKEN,
    firebase: {
      projectId: env.FIREBASE_PROJECT_ID,
      apiKey: env.FIREBASE_API_KEY ?? 'demo-api-key',
      authDomain: env.FIREBASE_AUTH_DOMAIN,
      emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST,
    },
    // The release goes with the DSN to both SDKs (browser by /config.json), so every event names its build.
    sentry: env.SENTRY_DSN
      ? { dsn: env.SENTRY_DSN, environment: env.SENTRY_ENVIRONMENT, release: currentRelease().release }
      : undefined,
    supportContact: env.SUPPORT_CONTACT,
    support: { email: env.SUPPORT_EMAIL, phone: env.SUPPORT_PHONE },
    theme: {
      productName: env.PRODUCT_NAME,
      primaryColor: env.THEME_PRIMARY_COLOR,
      headerColor: env.THEME_HEADER_COLOR,
      logoUrl: env.LOGO_URL,
    },
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    trustProxy: env.TRUST_PROXY,
    tokenRecheckMs: env.TOKEN_RECHECK_SECONDS * 1000,
    rateLimits: {
      lookupsPerMinute: env.RATE_LIMIT_LOOKUPS_PER_MINUTE,
      downloadsPerHour: env.RATE_LIMIT_DOWNLOADS_PER_HOUR,
      unknownParcelsPerHour: env.RATE_LIMIT_UNKNOWN_PARCELS_PER_HOUR,
    },
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    tokenOutageGraceMs: env.TOKEN_OUTAGE_GRACE_SECONDS * 1000,
    identityTimeoutMs: env.IDENTITY_TIMEOUT_MS,
    databaseTimeouts: { connectMs: env.DATABASE_CONNECT_TIMEOUT_MS, queryMs: env.DATABASE_QUERY_TIMEOUT_MS },
    http: {
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      idleTimeoutMs: env.HTTP_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
  };
}
