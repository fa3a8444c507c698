import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #0b5fa5');

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
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
    PRODUCT_NAME: z.string().trim().min(1).default('Parcel Invoice Portal'),
    THEME_PRIMARY_COLOR: hexColour.default('#1f4e8c'),
    THEME_HEADER_COLOR: hexColour.default('#162a4a'),
    LOGO_URL: optionalString.pipe(
      z
        .string()
        .regex(/^(\/|https:\/\/)\S+$/, 'must be a path on this server (/...) or an https:// URL')
        .optional(),
    ),
    WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'apps/web/dist')),
    TRUST_PROXY: z.stringbool().default(false),
    TOKEN_RECHECK_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    RATE_LIMIT_LOOKUPS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
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

/** Reads every variable at once so an operator sees all mistakes in one go, not one per restart. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`),
    );
  }
  return toConfig(result.data);
}

function toConfig(env: z.infer<typeof envSchema>) {
  return {
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    invoiceDir: path.resolve(env.INVOICE_DIR ?? path.join(env.DATA_DIR, 'invoices')),
    maxInvoiceBytes: env.MAX_INVOICE_BYTES,
    ingestToken: env.INGEST_TOKEN,
    firebase: {
      projectId: env.FIREBASE_PROJECT_ID,
      apiKey: env.FIREBASE_API_KEY ?? 'demo-api-key',
      authDomain: env.FIREBASE_AUTH_DOMAIN,
      emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST,
    },
    sentry: env.SENTRY_DSN ? { dsn: env.SENTRY_DSN, environment: env.SENTRY_ENVIRONMENT } : undefined,
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
    rateLimits: { lookupsPerMinute: env.RATE_LIMIT_LOOKUPS_PER_MINUTE },
  };
}
