import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { currentRelease } from './release.ts';
import { DEFAULT_THEME } from '@portal/contract/theme';
import { parseS3Url } from './blob-store/s3-location.ts';
import { exampleDatabasePasswordOrigin, exampleTokenOrigin } from './example-secrets.ts';
import { parseNetworks } from './lib/networks.ts';
import { firstServerUrl, ServerListError } from './db/server-list.ts';
import { SCIM_ROLE_NAMES, type ScimRoleName } from './scim/role-names.ts';
import { MAKE_A_TOKEN, weakSecretReason } from './lib/secret-strength.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * One server, or several as libpq names them (db-a:5432,db-b:5432) with target_session_attrs=read-write: the
 * portal then connects to whichever takes writes, and follows a failover.
 */
function checkDatabaseUrl(value: string, ctx: z.RefinementCtx) {
  try {
    const url = new URL(firstServerUrl(value));
    if (!/^postgres(ql)?:$/.test(url.protocol)) throw new ServerListError('must be a postgres:// or postgresql:// URL');
  } catch (error) {
    const message = error instanceof ServerListError ? error.message : 'must be a postgres:// or postgresql:// URL';
    ctx.addIssue({ code: 'custom', message });
  }
}

/** The portal exports OTLP over HTTP only: a grpc collector port (4317) would not understand it. */
const otlpProtocol = optionalString.pipe(
  z
    .enum(['http/protobuf', 'http/json'], {
      error: 'must be http/protobuf or http/json: the portal sends traces over OTLP/HTTP, not grpc',
    })
    .optional(),
);

const CIDR = /^[\da-f.:]+(\/\d{1,3})?$/i;

/**
 * Which proxies may name the client in X-Forwarded-For: none (empty or "false"), the nearest N hops, or the
 * listed addresses/networks. Never all: a client could then pick its own address and budget.
 */
function parseTrustProxy(value: string): false | number | string[] | 'invalid' | 'too-wide' {
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  const valid = entries.every((entry) => {
    const [address = '', bits] = entry.split('/');
    if (!CIDR.test(entry) || isIP(address) === 0) return false;
    return bits === undefined || Number(bits) <= (isIP(address) === 4 ? 32 : 128);
  });
  if (!valid) return 'invalid';
  // Every machine in a trusted network may name any client address: a whole internal network is too many.
  const tooWide = entries.some((entry) => {
    const [address = '', bits] = entry.split('/');
    return bits !== undefined && Number(bits) < (isIP(address) === 4 ? NARROWEST_IPV4_BITS : NARROWEST_IPV6_BITS);
  });
  return tooWide ? 'too-wide' : entries;
}

/** The tokens callers present to the portal: each must be hard to guess in production (lib/secret-strength.ts). */
const BEARER_TOKENS = ['INGEST_TOKEN', 'METRICS_TOKEN', 'SCIM_TOKEN', 'SCIM_TOKEN_PREVIOUS'] as const;

/** Origins on the machine itself, which browsers treat as secure without TLS: how the production check runs. */
const LOOPBACK_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;

/** The widest networks TRUST_PROXY may name: one subnet of proxies (256 IPv4 addresses, one IPv6 /64). */
const NARROWEST_IPV4_BITS = 24;
const NARROWEST_IPV6_BITS = 64;

/** A mail domain as it follows the "@": labels of letters, digits and hyphens, and a top-level label. */
const MAIL_DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** A timeout: at least 100 ms (anything shorter is a typo), at most ten minutes. */
const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(600_000).default(fallback);

const onOff = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default(fallback)
    .transform((value) => value === 'true' || value === '1');

/**
 * Where a token is accepted from: empty, any network; otherwise addresses or networks (CIDR). A token is its
 * caller's only credential: this keeps a leaked copy useless outside the networks that caller runs in.
 */
const networksOf = (caller: string) =>
  z
    .string()
    .trim()
    .default('')
    .transform((value, ctx) => {
      if (value === '') return undefined;
      const networks = parseNetworks(value);
      if (!networks) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of addresses or networks (CIDR) ${caller}, e.g. 10.0.7.0/24,2001:db8:7::/48; empty: any`,
        });
        return z.NEVER;
      }
      return networks;
    });

/** A host name with at least one dot (example.com, mail.example.co.uk), lower-cased. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

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
    DATABASE_URL: optionalString.pipe(z.string().superRefine(checkDatabaseUrl).optional()),
    INVOICE_DIR: optionalString,
    INVOICE_STORE: optionalString.pipe(
      z
        .string()
        .refine((value) => parseS3Url(value) !== undefined, {
          error:
            'must be s3://<bucket>/<prefix> (prefix: letters, digits, . _ - and /), or empty for the folder INVOICE_DIR',
        })
        .optional(),
    ),
    INVOICE_STORE_ENDPOINT: optionalString.pipe(
      z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    ),
    INVOICE_STORE_REGION: optionalString,
    AWS_REGION: optionalString,
    INVOICE_STORE_PATH_STYLE: onOff('false'),
    INVOICE_STORE_TIMEOUT_MS: milliseconds(3000),
    INVOICE_STORE_PRESIGN_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
    INVOICE_SPOOL_DIR: optionalString,
    // Object Lock on the invoice bucket: each object is sent with a retention until INVOICE_RETENTION_YEARS on.
    INVOICE_STORE_OBJECT_LOCK_MODE: z
      .enum(['off', 'governance', 'compliance'], { error: 'must be off, governance or compliance' })
      .default('off'),
    // Years below which no invoice version may be deleted by anyone; unset: off. 8 or 10 years in Germany.
    INVOICE_RETENTION_YEARS: z.coerce.number().int().min(1).max(30).optional(),
    MIGRATE_ON_START: onOff('true'),
    MAX_INVOICE_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(10 * 1024 * 1024),
    // Each upload being read holds its body and a reader process (up to INVOICE_READER_MEMORY_MB): this bounds the memory.
    MAX_CONCURRENT_INGESTS: z.coerce.number().int().min(1).max(32).default(2),
    INVOICE_READ_TIMEOUT_MS: milliseconds(10_000),
    // A reader with PDF.js loaded is about 140 MiB resident before it reads anything, and the largest genuine
    // invoice the default upload limit lets in (10 MB of UBL) takes it to about 305 MiB; 352 leaves a 512 MiB
    // container 160 MiB for the server with one upload slot (decision 0093).
    INVOICE_READER_MEMORY_MB: z.coerce.number().int().min(224).max(8192).default(352),
    // What an e-invoice that breaks an EN 16931 business rule (a fatal finding) gets: accept (stored, no report
    // kept), flag (stored with its report, shown to readers) or refuse (answered 400 with the fatal findings).
    EINVOICE_INVALID: z.enum(['accept', 'flag', 'refuse']).default('flag'),
    INGEST_TOKEN: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    // Empty: any network. The token is the ingestion job's only credential; this keeps a leaked copy useless
    // outside the networks the job runs in.
    INGEST_TOKEN_NETWORKS: networksOf('the ingestion job calls from'),
    METRICS_TOKEN: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    // A management port of its own for /metrics, so a NetworkPolicy can let the scraper reach it and nothing else.
    METRICS_PORT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(1).max(65535).optional()),
    // The company directory's bearer token for /scim/v2 (or SCIM_TOKEN_FILE, read at start-up); unset: no SCIM.
    SCIM_TOKEN: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    // The token being replaced, accepted beside SCIM_TOKEN while the directory is switched to the new one.
    SCIM_TOKEN_PREVIOUS: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    // The directory's published egress ranges; empty: any network (nginx's location for /scim says the same).
    SCIM_TOKEN_NETWORKS: networksOf('the company directory calls from'),
    // The domains of the addresses the directory may create; empty: any (refused in production, with SCIM on).
    SCIM_EMAIL_DOMAINS: z
      .string()
      .trim()
      .default('')
      .transform((value, ctx) => {
        const domains = value === '' ? [] : value.split(',').map((entry) => entry.trim().toLowerCase());
        const wrong = domains.find((domain) => !DOMAIN.test(domain));
        if (wrong !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message: `must be a comma-separated list of e-mail domains such as example.com,example.co.uk ("${wrong}" is not one)`,
          });
          return z.NEVER;
        }
        return domains;
      }),
    // The roles the directory gives and takes (admin, finance); empty: none, it adds and removes people only.
    SCIM_ASSIGNABLE_ROLES: z
      .string()
      .trim()
      .default('')
      .transform((value, ctx) => {
        const roles = value === '' ? [] : value.split(',').map((entry) => entry.trim().toLowerCase());
        const wrong = roles.find((role) => !(SCIM_ROLE_NAMES as readonly string[]).includes(role));
        if (wrong !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message: `must be a comma-separated list of ${SCIM_ROLE_NAMES.join(', ')} ("${wrong}" is not a role the directory can give), or empty for none`,
          });
          return z.NEVER;
        }
        return roles as ScimRoleName[];
      }),
    FIREBASE_PROJECT_ID: z.string().regex(/^[a-z0-9-]{4,40}$/, 'must be a Firebase project id'),
    FIREBASE_API_KEY: optionalString,
    FIREBASE_AUTH_DOMAIN: optionalString,
    FIREBASE_AUTH_EMULATOR_HOST: optionalString.pipe(
      z
        .string()
        .regex(/^[\w.-]+:\d+$/, 'must be host:port')
        .optional(),
    ),
    SSO_PROVIDER_ID: optionalString.pipe(
      z
        .string()
        .regex(
          /^(oidc|saml)\.[A-Za-z0-9._-]{1,60}$/,
          'must name an OIDC or SAML provider of the Firebase project, e.g. oidc.acme or saml.acme',
        )
        .optional(),
    ),
    SSO_BUTTON_LABEL: optionalString.pipe(z.string().trim().min(1).max(60, 'must be at most 60 characters').optional()),
    // The company's own e-mail domains: a company sign-in of any other address is refused (sso/company-sign-in.ts).
    SSO_ALLOWED_DOMAINS: z
      .string()
      .default('')
      .transform((value, ctx) => {
        const domains = value
          .split(',')
          .map((entry) => entry.trim().toLowerCase())
          .filter(Boolean);
        const wrong = domains.find((domain) => !MAIL_DOMAIN.test(domain));
        if (wrong !== undefined) {
          ctx.addIssue({
            code: 'custom',
            message: `"${wrong}" is not a mail domain: list the company's domains separated by commas, e.g. acme.com,acme.co.uk`,
          });
          return z.NEVER;
        }
        return domains;
      }),
    SENTRY_DSN: optionalString.pipe(z.url('must be a Sentry DSN URL').optional()),
    SENTRY_ENVIRONMENT: z.string().default('L1'),
    // OpenTelemetry's own variables (decision 0079): the SDK reads them itself (observability/tracing.ts);
    // checked here too, so a mistyped one stops the start instead of losing the traces quietly.
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalString.pipe(
      z
        .url({
          protocol: /^https?$/,
          error: 'must be the OTLP/HTTP base URL of a collector, e.g. http://otel-collector:4318',
        })
        .optional(),
    ),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString.pipe(
      z
        .url({
          protocol: /^https?$/,
          error: 'must be the OTLP/HTTP traces URL of a collector, e.g. http://otel-collector:4318/v1/traces',
        })
        .optional(),
    ),
    OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol,
    // Read by observability/tracing.ts itself, before this file loads: whether a request from a proxy TRUST_PROXY
    // names may continue the trace context (traceparent) it brings; off: every request starts its own trace.
    TRUST_TRACE_CONTEXT: onOff('false'),
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol,
    OTEL_SERVICE_NAME: optionalString,
    OTEL_RESOURCE_ATTRIBUTES: optionalString,
    OTEL_TRACES_SAMPLER: optionalString.pipe(
      z
        .enum(
          [
            'always_on',
            'always_off',
            'traceidratio',
            'parentbased_always_on',
            'parentbased_always_off',
            'parentbased_traceidratio',
          ],
          {
            error:
              'must be always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio',
          },
        )
        .optional(),
    ),
    OTEL_TRACES_SAMPLER_ARG: optionalString.pipe(
      z
        .string()
        .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'must be a ratio from 0 to 1, e.g. 0.1')
        .optional(),
    ),
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
        if (trust === 'too-wide') {
          ctx.addIssue({
            code: 'custom',
            message: `names a network wider than /${NARROWEST_IPV4_BITS} (IPv6: /${NARROWEST_IPV6_BITS}): every machine in it could name its own client address (and so its rate-limit budget and what the audit log records); list your proxies' exact addresses, or give a hop count (1) and let only the proxy reach the instances`,
          });
          return z.NEVER;
        }
        if (trust === 'invalid') {
          ctx.addIssue({
            code: 'custom',
            message:
              'must be a number of proxy hops (e.g. 1) or a comma-separated list of your proxies\' exact addresses (e.g. 10.0.4.21,10.0.4.22); "true" would trust any client\'s own X-Forwarded-For',
          });
          return z.NEVER;
        }
        return trust;
      }),
    TOKEN_RECHECK_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    RATE_LIMIT_LOOKUPS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    RATE_LIMIT_DOWNLOADS_PER_HOUR: z.coerce.number().int().min(1).default(600),
    RATE_LIMIT_UNKNOWN_PARCELS_PER_HOUR: z.coerce.number().int().min(1).default(60),
    /** The SMTP relay for "tell me when it arrives" mail; unset: the feature is off and its button hidden. */
    SMTP_URL: optionalString.pipe(
      z
        .string()
        .regex(
          /^smtps?:\/\/[^\s]+$/,
          'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@relay.example.com:587',
        )
        .optional(),
    ),
    MAIL_FROM: z.string().trim().default('Parcel Invoice Portal <no-reply@localhost>'),
    /**
     * The portal's address as people open it, for links in mail. Required with SMTP_URL in production; unset
     * elsewhere: this instance's own http://localhost:PORT. Never a request's Host, which the caller chooses.
     */
    PORTAL_URL: optionalString.pipe(
      z
        .string()
        .regex(
          /^https?:\/\/[^/\s]+(\/[^\s]*)?$/,
          'must be the address people open the portal at, e.g. https://portal.example.com',
        )
        .transform((value) => value.replace(/\/+$/, ''))
        .optional(),
    ),
    // Per instance, for everyone not signed in together: what a flood from countless addresses may take.
    RATE_LIMIT_ANONYMOUS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(20),
    RATE_LIMIT_ANONYMOUS_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(4),
    RATE_LIMIT_PASSKEY_CEREMONIES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    // Per finance user, all instances together: a person refining a search makes a few a minute.
    RATE_LIMIT_INVOICE_SEARCHES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    // Invoices one person may put into ZIPs in a UTC day: a month's close fits, a phished session's harvest does not.
    INVOICE_EXPORTS_PER_DAY: z.coerce.number().int().min(1).default(2000),
    // The directory's own allowance (all instances together): a first sync of 10,000 people fits in minutes.
    RATE_LIMIT_SCIM_PER_MINUTE: z.coerce.number().int().min(1).default(6000),
    // Calls with a wrong SCIM token or none, per client address: beyond it every SCIM call from there is 429.
    RATE_LIMIT_SCIM_REFUSALS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
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
    ADMIN_STEP_UP_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    // Hours, fractions allowed (0.5 is half an hour); at most 90 days.
    SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(2160).default(12),
    ADMIN_SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(2160).default(8),
    FINANCE_SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(2160).default(8),
    // Administrators and finance users: a sign-in left without a call for this long ends (0.5 is 30 seconds).
    PRIVILEGED_SESSION_IDLE_MINUTES: z.coerce.number().positive().max(1440).default(30),
    WEBAUTHN_RP_ID: optionalString.pipe(
      z
        .string()
        .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as portal.example.com (no scheme, no port)')
        .optional(),
    ),
    WEBAUTHN_ORIGINS: optionalString.pipe(
      z
        .string()
        .transform((value) => value.split(',').map((origin) => origin.trim()))
        .pipe(
          z.array(
            z
              .string()
              .regex(/^https?:\/\/[^/\s]+$/, 'must be origins such as https://portal.example.com (scheme and host)'),
          ),
        )
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.ADMIN_STEP_UP_MAX_AGE_SECONDS > env.ADMIN_SESSION_MAX_AGE_HOURS * 3600) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_STEP_UP_MAX_AGE_SECONDS'],
        message: 'must not exceed ADMIN_SESSION_MAX_AGE_HOURS (a passkey confirmation cannot outlive its sign-in)',
      });
    }
    if (env.ADMIN_STEP_UP_MAX_AGE_SECONDS > env.FINANCE_SESSION_MAX_AGE_HOURS * 3600) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_STEP_UP_MAX_AGE_SECONDS'],
        message: 'must not exceed FINANCE_SESSION_MAX_AGE_HOURS (a passkey confirmation cannot outlive its sign-in)',
      });
    }
    if (!env.WEBAUTHN_RP_ID !== !env.WEBAUTHN_ORIGINS) {
      ctx.addIssue({
        code: 'custom',
        path: [env.WEBAUTHN_RP_ID ? 'WEBAUTHN_ORIGINS' : 'WEBAUTHN_RP_ID'],
        message:
          'is needed with the other: WEBAUTHN_RP_ID names the host passkeys belong to, WEBAUTHN_ORIGINS the pages they are used on',
      });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message:
          'must differ from PORT: it is the management port, which serves /metrics alone; leave it empty to serve /metrics on PORT',
      });
    }
    if (env.SCIM_TOKEN_PREVIOUS && !env.SCIM_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['SCIM_TOKEN_PREVIOUS'],
        message: 'is accepted only beside SCIM_TOKEN (the new token): set SCIM_TOKEN, or unset both to turn SCIM off',
      });
    }
    for (const name of ['INGEST_TOKEN', 'METRICS_TOKEN', 'SCIM_TOKEN', 'SCIM_TOKEN_PREVIOUS'] as const) {
      const shippedIn = exampleTokenOrigin(env[name], env.NODE_ENV === 'production');
      if (shippedIn) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `is the example value of ${shippedIn}, which anyone who has read the repository knows; make a token of your own (e.g. openssl rand -hex 32) and give it to whoever calls with it, or leave it empty`,
        });
      }
    }
    if (env.INGEST_TOKEN_NETWORKS && typeof env.TRUST_PROXY === 'number') {
      // A hop count believes the X-Forwarded-For of whatever connects: any pod or container that can reach the
      // instance could name an address inside the networks.
      ctx.addIssue({
        code: 'custom',
        path: ['INGEST_TOKEN_NETWORKS'],
        message:
          "needs TRUST_PROXY to list the proxies' addresses (e.g. 10.0.4.21,10.0.4.22), not a hop count: with a count, X-Forwarded-For is believed from whatever connects, so anything that can reach an instance could claim an address in these networks; or leave TRUST_PROXY empty when the ingestion job connects to the instances directly",
      });
    }
    if (env.TRUST_TRACE_CONTEXT && env.TRUST_PROXY === false) {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_TRACE_CONTEXT'],
        message:
          'needs TRUST_PROXY: a trace context is taken only from the proxies it names, never from any caller; set TRUST_PROXY, or leave TRUST_TRACE_CONTEXT off',
      });
    }
    if (env.NODE_ENV === 'production') {
      for (const name of BEARER_TOKENS) {
        const value = env[name];
        const weakness = value === undefined ? undefined : weakSecretReason(value);
        if (weakness) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `${weakness}: in production a token is its caller's only credential, and this one can be guessed; ${MAKE_A_TOKEN} and give it to whoever calls with it`,
          });
        }
      }
      const plainOrigins = (env.WEBAUTHN_ORIGINS ?? []).filter(
        (origin) => origin.startsWith('http://') && !LOOPBACK_ORIGIN.test(origin),
      );
      if (plainOrigins.length > 0) {
        // Over http a network in between reads the step-up cookie and could serve its own page at the origin.
        ctx.addIssue({
          code: 'custom',
          path: ['WEBAUTHN_ORIGINS'],
          message: `names ${plainOrigins.join(', ')}: when NODE_ENV is production the pages must be https (only http://localhost, which never leaves the machine, is accepted); give the address people open, e.g. https://portal.example.com`,
        });
      }
    }
    const passwordShippedIn = exampleDatabasePasswordOrigin(env.DATABASE_URL);
    if (passwordShippedIn) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: `has the example password of ${passwordShippedIn}, which anyone who has read the repository knows; give the database role a password of your own (e.g. openssl rand -hex 24) and put it here`,
      });
    }
    if (env.NODE_ENV === 'production' && !env.WEBAUTHN_RP_ID && !env.WEBAUTHN_ORIGINS) {
      // Derived from the request, the passkeys' domain is whatever Host or X-Forwarded-Host a caller sends.
      ctx.addIssue({
        code: 'custom',
        path: ['WEBAUTHN_RP_ID'],
        message:
          "and WEBAUTHN_ORIGINS are required when NODE_ENV is production: without them the passkeys' host would be taken from each request's Host or X-Forwarded-Host, which the caller chooses; set the portal's host name and the origins its pages are opened at, e.g. WEBAUTHN_RP_ID=portal.example.com WEBAUTHN_ORIGINS=https://portal.example.com",
      });
    }
    if (env.NODE_ENV === 'production' && env.SMTP_URL && !env.PORTAL_URL) {
      // The mail's link would otherwise have to come from a request's Host header, which the caller chooses.
      ctx.addIssue({
        code: 'custom',
        path: ['PORTAL_URL'],
        message:
          'is required with SMTP_URL when NODE_ENV is production: the arrival mail links to the invoice at this address; set the address people open the portal at, e.g. PORTAL_URL=https://portal.example.com',
      });
    }
    if (env.FIREBASE_AUTH_EMULATOR_HOST && !env.FIREBASE_PROJECT_ID.startsWith('demo-')) {
      // The emulator accepts unsigned tokens: pointing a real project at it would let anyone in.
      ctx.addIssue({
        code: 'custom',
        path: ['FIREBASE_PROJECT_ID'],
        message:
          'must begin with "demo-" while FIREBASE_AUTH_EMULATOR_HOST is set (the emulator does not check token signatures)',
      });
    }
    if (env.NODE_ENV === 'production' && env.SCIM_TOKEN && env.SCIM_EMAIL_DOMAINS.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['SCIM_EMAIL_DOMAINS'],
        message:
          "is required when NODE_ENV is production and SCIM_TOKEN is set: without it the directory's token could list any address at all; name the company's e-mail domains, e.g. SCIM_EMAIL_DOMAINS=example.com",
      });
    }
    if (env.FIREBASE_AUTH_EMULATOR_HOST && env.NODE_ENV === 'production') {
      // A demo- project id is no proof of intent: production must verify every signature, whatever the id.
      ctx.addIssue({
        code: 'custom',
        path: ['FIREBASE_AUTH_EMULATOR_HOST'],
        message:
          'must not be set when NODE_ENV is production: the Auth emulator accepts unsigned tokens, so anyone could sign in as anyone; unset it and configure the real Firebase project',
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
    if (env.SSO_PROVIDER_ID && !env.SSO_BUTTON_LABEL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SSO_BUTTON_LABEL'],
        message:
          'is required when SSO_PROVIDER_ID is set: the login button reads "Sign in with <SSO_BUTTON_LABEL>", e.g. the company name',
      });
    }
    if (env.SSO_PROVIDER_ID && !env.FIREBASE_AUTH_EMULATOR_HOST && !env.FIREBASE_AUTH_DOMAIN) {
      ctx.addIssue({
        code: 'custom',
        path: ['FIREBASE_AUTH_DOMAIN'],
        message:
          'is required when SSO_PROVIDER_ID is set: the sign-in pop-up runs on the auth domain (e.g. your-project.firebaseapp.com)',
      });
    }
    if (env.SSO_PROVIDER_ID && env.SSO_ALLOWED_DOMAINS.length === 0 && env.NODE_ENV === 'production') {
      // Outside production an empty list admits every domain, for the emulator's made-up addresses.
      ctx.addIssue({
        code: 'custom',
        path: ['SSO_ALLOWED_DOMAINS'],
        message:
          "is required when SSO_PROVIDER_ID is set and NODE_ENV is production: list the company's e-mail domains (e.g. acme.com), so an address the provider vouches for in any other domain is refused",
      });
    }
    if (env.SSO_ALLOWED_DOMAINS.length > 0 && !env.SSO_PROVIDER_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['SSO_PROVIDER_ID'],
        message: 'is required when SSO_ALLOWED_DOMAINS is set: the domains are those of the single sign-on provider',
      });
    }
    if (env.SSO_BUTTON_LABEL && !env.SSO_PROVIDER_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['SSO_PROVIDER_ID'],
        message: 'is required when SSO_BUTTON_LABEL is set: the button needs the provider it signs in with',
      });
    }
    if (env.INVOICE_STORE_OBJECT_LOCK_MODE !== 'off' && (!env.INVOICE_STORE || !env.INVOICE_RETENTION_YEARS)) {
      ctx.addIssue({
        code: 'custom',
        path: ['INVOICE_STORE_OBJECT_LOCK_MODE'],
        message: `needs INVOICE_STORE (a bucket with Object Lock enabled) and INVOICE_RETENTION_YEARS (how long each object is locked)${env.INVOICE_STORE ? '' : '; the folder store has no Object Lock'}`,
      });
    }
    if (!env.FIREBASE_AUTH_EMULATOR_HOST && !env.FIREBASE_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['FIREBASE_API_KEY'], message: 'is required outside emulator mode' });
    }
  });

export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.problems = problems;
  }
}

/**
 * Reads every variable at once so an operator sees all mistakes in one go, not one per restart. A variable
 * set to the empty string counts as unset: .env.example used as an env file (compose's env_file, a
 * ConfigMap) has every name, most of them empty, and `WEB_DIST_DIR=` must not mean the current folder.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const fromFiles = readSecretFiles(env);
  const result = envSchema.safeParse(
    Object.fromEntries(Object.entries({ ...env, ...fromFiles.values }).filter(([, value]) => value !== '')),
  );
  const problems = result.success
    ? [...fromFiles.problems]
    : [
        ...fromFiles.problems,
        ...result.error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`),
      ];
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

/**
 * The settings that hold a secret (a password, a token, or a URL carrying one): each may instead be given as
 * `<NAME>_FILE`. The backup keys have their own `_FILE` variants, read by the backup commands.
 */
export const SECRET_FILE_SETTINGS = [
  'DATABASE_URL',
  'INGEST_TOKEN',
  'METRICS_TOKEN',
  'SCIM_TOKEN',
  'SCIM_TOKEN_PREVIOUS',
  'SMTP_URL',
  'SENTRY_DSN',
] as const;

/** Every setting the server reads from its environment (the names of .env.example and docs/configuration.md). */
export const SETTING_NAMES: readonly string[] = Object.keys(envSchema.shape);

/**
 * `<NAME>_FILE` names a file holding the secret (a mounted Kubernetes or Docker secret), read once here; the
 * file's content is then checked like the variable itself. Both set is a mistake: which one wins is a guess.
 */
function readSecretFiles(env: NodeJS.ProcessEnv) {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const name of SECRET_FILE_SETTINGS) {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (env[name]?.trim()) {
      problems.push(`${name}_FILE and ${name} are both set: give it one way only`);
      continue;
    }
    try {
      values[name] = readFileSync(file, 'utf8').trim();
    } catch (error) {
      problems.push(`${name}_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): ${file}`);
    }
  }
  return { values, problems };
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
    /** Where invoice bytes live: the folder `invoiceDir`, or a bucket when INVOICE_STORE names one. */
    invoiceStore: env.INVOICE_STORE
      ? {
          kind: 's3' as const,
          ...parseS3Url(env.INVOICE_STORE)!,
          endpoint: env.INVOICE_STORE_ENDPOINT,
          region: env.INVOICE_STORE_REGION ?? env.AWS_REGION ?? 'us-east-1',
          forcePathStyle: env.INVOICE_STORE_PATH_STYLE,
          timeoutMs: env.INVOICE_STORE_TIMEOUT_MS,
          presignSeconds: env.INVOICE_STORE_PRESIGN_SECONDS,
          spoolDir: path.resolve(env.INVOICE_SPOOL_DIR ?? path.join(os.tmpdir(), 'portal-invoice-spool')),
          objectLock:
            env.INVOICE_STORE_OBJECT_LOCK_MODE === 'off' || !env.INVOICE_RETENTION_YEARS
              ? undefined
              : {
                  mode:
                    env.INVOICE_STORE_OBJECT_LOCK_MODE === 'compliance'
                      ? ('COMPLIANCE' as const)
                      : ('GOVERNANCE' as const),
                  years: env.INVOICE_RETENTION_YEARS,
                },
        }
      : { kind: 'folder' as const },
    /** Apply pending migrations at start (the default), or leave that to `portal migrate` and refuse a schema behind. */
    migrateOnStart: env.MIGRATE_ON_START,
    maxInvoiceBytes: env.MAX_INVOICE_BYTES,
    /** Uploads taken in at once by this instance; one more is refused with 503 and Retry-After. */
    maxConcurrentIngests: env.MAX_CONCURRENT_INGESTS,
    /** Wall-clock time reading one upload may take before its reader process is killed and it is refused. */
    invoiceReadTimeoutMs: env.INVOICE_READ_TIMEOUT_MS,
    /** Resident memory one reader process may reach while reading an upload before it is killed and the upload refused. */
    invoiceReaderMemoryMb: env.INVOICE_READER_MEMORY_MB,
    /** accept | flag | refuse: what an e-invoice with a fatal EN 16931 finding gets at ingestion. */
    eInvoiceInvalid: env.EINVOICE_INVALID,
    ingestToken: env.INGEST_TOKEN,
    /** Where the ingestion token is accepted from; undefined: anywhere. */
    ingestNetworks: env.INGEST_TOKEN_NETWORKS,
    metricsToken: env.METRICS_TOKEN,
    /** Where /metrics is served instead of PORT; undefined: on PORT, beside the API. */
    metricsPort: env.METRICS_PORT,
    /** The SCIM service provider at /scim/v2; undefined: not served at all. The current token comes first. */
    scim: env.SCIM_TOKEN
      ? {
          tokens: [env.SCIM_TOKEN, ...(env.SCIM_TOKEN_PREVIOUS ? [env.SCIM_TOKEN_PREVIOUS] : [])],
          /** Where the tokens are accepted from; undefined: anywhere. */
          networks: env.SCIM_TOKEN_NETWORKS,
          /** The domains of the addresses the directory may create; empty: any (outside production only). */
          emailDomains: env.SCIM_EMAIL_DOMAINS,
          assignableRoles: env.SCIM_ASSIGNABLE_ROLES,
        }
      : undefined,
    firebase: {
      projectId: env.FIREBASE_PROJECT_ID,
      apiKey: env.FIREBASE_API_KEY ?? 'demo-api-key',
      authDomain: env.FIREBASE_AUTH_DOMAIN,
      emulatorHost: env.FIREBASE_AUTH_EMULATOR_HOST,
    },
    /** Single sign-on through the project's OIDC or SAML provider; undefined: password sign-in only. */
    sso:
      env.SSO_PROVIDER_ID && env.SSO_BUTTON_LABEL
        ? { providerId: env.SSO_PROVIDER_ID, label: env.SSO_BUTTON_LABEL }
        : undefined,
    /** The domains a company sign-in's address may have; empty (development only): any. */
    ssoAllowedDomains: env.SSO_ALLOWED_DOMAINS,
    // The release goes with the DSN to both SDKs (browser by /config.json), so every event names its build.
    sentry: env.SENTRY_DSN
      ? { dsn: env.SENTRY_DSN, environment: env.SENTRY_ENVIRONMENT, release: currentRelease().release }
      : undefined,
    supportContact: env.SUPPORT_CONTACT,
    support: { email: env.SUPPORT_EMAIL, phone: env.SUPPORT_PHONE },
    /** "Tell me when it arrives": the relay and sender, or undefined when the operator set no SMTP_URL. */
    mail: env.SMTP_URL ? { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM } : undefined,
    /** Where the links in mail lead; outside production without PORTAL_URL, this instance on localhost. */
    portalUrl: env.PORTAL_URL ?? `http://localhost:${env.PORT}`,
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
      anonymousPerSecond: env.RATE_LIMIT_ANONYMOUS_PER_SECOND,
      anonymousConcurrency: env.RATE_LIMIT_ANONYMOUS_CONCURRENCY,
      passkeyCeremoniesPerMinute: env.RATE_LIMIT_PASSKEY_CEREMONIES_PER_MINUTE,
      scimPerMinute: env.RATE_LIMIT_SCIM_PER_MINUTE,
      scimRefusalsPerMinute: env.RATE_LIMIT_SCIM_REFUSALS_PER_MINUTE,
      invoiceSearchesPerMinute: env.RATE_LIMIT_INVOICE_SEARCHES_PER_MINUTE,
      invoiceExportsPerDay: env.INVOICE_EXPORTS_PER_DAY,
    },
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    /** Years below which no invoice version, nor its bytes, may be deleted; undefined: off (db/invoice-retention.ts). */
    invoiceRetentionYears: env.INVOICE_RETENTION_YEARS,
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
    adminStepUpMaxAgeMs: env.ADMIN_STEP_UP_MAX_AGE_SECONDS * 1000,
    sessionLifetimes: {
      userMs: Math.round(env.SESSION_MAX_AGE_HOURS * 3_600_000),
      adminMs: Math.round(env.ADMIN_SESSION_MAX_AGE_HOURS * 3_600_000),
      financeMs: Math.round(env.FINANCE_SESSION_MAX_AGE_HOURS * 3_600_000),
      privilegedIdleMs: Math.round(env.PRIVILEGED_SESSION_IDLE_MINUTES * 60_000),
    },
    /** Where passkeys belong and may be used; undefined: the host and origin each request arrived at. */
    webauthn:
      env.WEBAUTHN_RP_ID && env.WEBAUTHN_ORIGINS
        ? { rpId: env.WEBAUTHN_RP_ID, origins: env.WEBAUTHN_ORIGINS }
        : undefined,
  };
}
