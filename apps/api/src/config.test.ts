import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, SECRET_FILE_SETTINGS, SETTING_NAMES } from './config.ts';

const valid = { FIREBASE_PROJECT_ID: 'demo-portal', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
const PASSKEY_HOST = { WEBAUTHN_RP_ID: 'portal.example.com', WEBAUTHN_ORIGINS: 'https://portal.example.com' };
const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
};

describe('loadConfig', () => {
  it('accepts a minimal emulator configuration and fills defaults', () => {
    const config = loadConfig(valid);
    assert.equal(config.port, 8080);
    assert.equal(config.sentry, undefined);
    assert.equal(config.supportContact, 'the UK IT team');
    assert.equal(config.databaseUrl, undefined);
    assert.deepEqual(config.support, { email: undefined, phone: undefined });
    assert.equal(config.theme.productName, 'Parcel Invoice Portal');
  });

  it('takes .env.example as it is, as an env file: its empty variables mean the defaults', () => {
    const example = Object.fromEntries(
      readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8')
        .split('\n')
        .flatMap((line) => {
          const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
          return match ? [[match[1], match[2]]] : [];
        }),
    );
    const config = loadConfig({ ...example, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    assert.equal(config.webDistDir, loadConfig(valid).webDistDir);
    assert.ok(config.webDistDir.endsWith('apps/web/dist'));
    assert.equal(config.invoiceDir.endsWith('invoices'), true);
    assert.equal(config.port, 8080);
    assert.equal(loadConfig({ ...valid, PORT: '', SHUTDOWN_GRACE_MS: '' }).shutdownGraceMs, 5000);
  });

  it('reads the support e-mail and phone and the theme, and refuses malformed ones', () => {
    const config = loadConfig({
      ...valid,
      SUPPORT_EMAIL: 'it@example.com',
      SUPPORT_PHONE: '+44 20 7946 0000',
      PRODUCT_NAME: 'Acme Invoices',
      THEME_PRIMARY_COLOR: '#aa3300',
      LOGO_URL: '/brand/logo.svg',
    });
    assert.deepEqual(config.support, { email: 'it@example.com', phone: '+44 20 7946 0000' });
    assert.deepEqual(config.theme, {
      productName: 'Acme Invoices',
      primaryColor: '#aa3300',
      headerColor: '#162a4a',
      logoUrl: '/brand/logo.svg',
    });
    assert.throws(
      () => loadConfig({ ...valid, SUPPORT_EMAIL: 'nobody', THEME_PRIMARY_COLOR: 'red', LOGO_URL: 'http://x/y.png' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['SUPPORT_EMAIL', 'THEME_PRIMARY_COLOR', 'LOGO_URL'].every((name) => error.message.includes(name)),
    );
  });

  it('takes in two uploads at once, each read within ten seconds, unless told otherwise; refuses a limit of none', () => {
    const config = loadConfig(valid);
    assert.equal(config.maxConcurrentIngests, 2);
    assert.equal(config.invoiceReadTimeoutMs, 10_000);
    const tuned = loadConfig({ ...valid, MAX_CONCURRENT_INGESTS: '1', INVOICE_READ_TIMEOUT_MS: '30000' });
    assert.equal(tuned.maxConcurrentIngests, 1);
    assert.equal(tuned.invoiceReadTimeoutMs, 30_000);
    for (const [name, value] of [
      ['MAX_CONCURRENT_INGESTS', '0'],
      ['MAX_CONCURRENT_INGESTS', 'many'],
      ['MAX_CONCURRENT_INGESTS', '33'],
      ['INVOICE_READ_TIMEOUT_MS', '10'],
    ] as const) {
      assert.throws(() => loadConfig({ ...valid, [name]: value }), new RegExp(name), `${name}=${value}`);
    }
  });

  it('serves /metrics on a management port of its own only when told, never on the API port', () => {
    assert.equal(loadConfig(valid).metricsPort, undefined);
    assert.equal(loadConfig({ ...valid, METRICS_PORT: '' }).metricsPort, undefined);
    assert.equal(loadConfig({ ...valid, METRICS_PORT: '9464' }).metricsPort, 9464);
    assert.match(problemsOf({ ...valid, METRICS_PORT: '8080' }).join('\n'), /METRICS_PORT.*must differ from PORT/);
    assert.match(problemsOf({ ...valid, METRICS_PORT: 'metrics' }).join('\n'), /METRICS_PORT/);
    assert.match(problemsOf({ ...valid, METRICS_PORT: '70000' }).join('\n'), /METRICS_PORT/);
  });

  it('lists every bad variable at once', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SENTRY_DSN: 'not a url', INGEST_TOKEN: 'short' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        const text = error.problems.join('\n');
        for (const name of ['PORT', 'DATABASE_URL', 'SENTRY_DSN', 'INGEST_TOKEN', 'FIREBASE_PROJECT_ID']) {
          assert.match(text, new RegExp(name), `${name} should be reported`);
        }
        return true;
      },
    );
  });

  it('checks the OpenTelemetry variables the tracing SDK reads: an OTLP/HTTP URL and protocol, a known sampler', () => {
    assert.deepEqual(
      problemsOf({
        ...valid,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_SERVICE_NAME: 'portal-eu',
      }),
      [],
    );
    const problems = problemsOf({
      ...valid,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_TRACES_SAMPLER_ARG: '1.5',
    }).join('\n');
    for (const [name, why] of [
      ['OTEL_EXPORTER_OTLP_ENDPOINT', /OTLP\/HTTP base URL/],
      ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', /not grpc/],
      ['OTEL_TRACES_SAMPLER', /parentbased_always_on/],
      ['OTEL_TRACES_SAMPLER_ARG', /ratio from 0 to 1/],
    ] as const)
      assert.match(problems, new RegExp(`${name} must be .*${why.source}`), `${name} should be reported`);
  });

  it('refuses the emulator with a project id that is not a demo project', () => {
    assert.throws(
      () => loadConfig({ ...valid, FIREBASE_PROJECT_ID: 'real-project' }),
      (error: unknown) => error instanceof ConfigError && /must begin with "demo-"/.test(error.message),
    );
  });

  it('requires the web API key outside emulator mode', () => {
    assert.throws(
      () => loadConfig({ FIREBASE_PROJECT_ID: 'real-project' }),
      (error: unknown) => error instanceof ConfigError && /FIREBASE_API_KEY/.test(error.message),
    );
    assert.equal(loadConfig({ FIREBASE_PROJECT_ID: 'real-project', FIREBASE_API_KEY: 'k' }).firebase.apiKey, 'k');
  });

  it('takes single sign-on as an oidc.* or saml.* provider with its button label, both or neither', () => {
    assert.equal(loadConfig(valid).sso, undefined);
    assert.deepEqual(loadConfig({ ...valid, SSO_PROVIDER_ID: 'saml.acme', SSO_BUTTON_LABEL: ' Acme ' }).sso, {
      providerId: 'saml.acme',
      label: 'Acme',
    });
    assert.match(
      problemsOf({ ...valid, SSO_PROVIDER_ID: 'google.com', SSO_BUTTON_LABEL: 'Acme' }).join(),
      /SSO_PROVIDER_ID/,
    );
    assert.match(problemsOf({ ...valid, SSO_PROVIDER_ID: 'oidc.acme' }).join(), /SSO_BUTTON_LABEL.*required/);
    assert.match(problemsOf({ ...valid, SSO_BUTTON_LABEL: 'Acme' }).join(), /SSO_PROVIDER_ID.*required/);
    // The pop-up runs on the auth domain: outside the emulator it must be named.
    const production = { FIREBASE_PROJECT_ID: 'acme-portal', FIREBASE_API_KEY: 'key', SSO_PROVIDER_ID: 'oidc.acme' };
    assert.match(problemsOf({ ...production, SSO_BUTTON_LABEL: 'Acme' }).join(), /FIREBASE_AUTH_DOMAIN/);
  });

  it("takes the company's e-mail domains for single sign-on, required in production and any domain elsewhere", () => {
    const sso = { ...valid, SSO_PROVIDER_ID: 'oidc.acme', SSO_BUTTON_LABEL: 'Acme' };
    assert.deepEqual(loadConfig(sso).ssoAllowedDomains, [], 'outside production, empty: any domain');
    assert.deepEqual(loadConfig({ ...sso, SSO_ALLOWED_DOMAINS: ' Acme.com, acme.co.uk ,' }).ssoAllowedDomains, [
      'acme.com',
      'acme.co.uk',
    ]);
    for (const wrong of ['@acme.com', 'acme', 'acme..com', 'https://acme.com', 'ac me.com']) {
      assert.match(
        problemsOf({ ...sso, SSO_ALLOWED_DOMAINS: wrong }).join(),
        /SSO_ALLOWED_DOMAINS.*not a mail domain/,
        wrong,
      );
    }
    assert.match(problemsOf({ ...valid, SSO_ALLOWED_DOMAINS: 'acme.com' }).join(), /SSO_PROVIDER_ID.*required/);
    const production = {
      FIREBASE_PROJECT_ID: 'real-project',
      FIREBASE_API_KEY: 'k',
      FIREBASE_AUTH_DOMAIN: 'real-project.firebaseapp.com',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      NODE_ENV: 'production',
      ...PASSKEY_HOST,
      SSO_PROVIDER_ID: 'oidc.acme',
      SSO_BUTTON_LABEL: 'Acme',
    };
    const problems = problemsOf(production);
    assert.equal(problems.length, 1, problems.join('; '));
    assert.match(
      problems[0]!,
      /^SSO_ALLOWED_DOMAINS is required when SSO_PROVIDER_ID is set and NODE_ENV is production/,
    );
    assert.deepEqual(loadConfig({ ...production, SSO_ALLOWED_DOMAINS: 'acme.com' }).ssoAllowedDomains, ['acme.com']);
  });

  it('takes a DATABASE_URL naming a primary and its replicas, and refuses a session kind the portal cannot write on', () => {
    const servers = 'postgres://u:p@db-a:5432,db-b:5432/portal?target_session_attrs=read-write';
    assert.equal(loadConfig({ ...valid, DATABASE_URL: servers }).databaseUrl, servers);
    assert.match(
      problemsOf({ ...valid, DATABASE_URL: 'postgres://u:p@db-a,db-b/portal?target_session_attrs=standby' }).join(),
      /DATABASE_URL.*target_session_attrs=standby; the portal writes, so use read-write/,
    );
    assert.match(problemsOf({ ...valid, DATABASE_URL: 'mysql://db/portal' }).join(), /DATABASE_URL must be a postgres/);
  });

  it('treats empty variables as unset', () => {
    assert.equal(loadConfig({ ...valid, DATABASE_URL: '', SENTRY_DSN: '' }).databaseUrl, undefined);
  });

  it('takes TRUST_PROXY as a hop count or a list of proxy addresses/CIDRs, never "trust everyone"', () => {
    assert.equal(loadConfig(valid).trustProxy, false);
    assert.equal(loadConfig({ ...valid, TRUST_PROXY: '1' }).trustProxy, 1);
    assert.deepEqual(loadConfig({ ...valid, TRUST_PROXY: '10.0.4.21, ::1' }).trustProxy, ['10.0.4.21', '::1']);
    assert.deepEqual(loadConfig({ ...valid, TRUST_PROXY: '10.0.4.0/24,fd00::/64' }).trustProxy, [
      '10.0.4.0/24',
      'fd00::/64',
    ]);
    for (const value of ['true', '10.0.0.0/33', 'proxy.example', '1.2.3']) {
      assert.throws(
        () => loadConfig({ ...valid, TRUST_PROXY: value }),
        (error: unknown) => error instanceof ConfigError && /TRUST_PROXY/.test(error.message),
        value,
      );
    }
  });

  it('refuses to trust a whole internal network to name client addresses', () => {
    for (const value of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '10.0.4.21,10.1.0.0/20', 'fd00::/8']) {
      assert.throws(
        () => loadConfig({ ...valid, TRUST_PROXY: value }),
        (error: unknown) =>
          error instanceof ConfigError && /TRUST_PROXY names a network wider than \/24/.test(error.message),
        value,
      );
    }
  });

  it('refuses a blank but set FIREBASE_AUTH_EMULATOR_HOST, which firebase-admin would take as emulator mode', () => {
    assert.throws(
      () =>
        loadConfig({ FIREBASE_PROJECT_ID: 'real-project', FIREBASE_API_KEY: 'k', FIREBASE_AUTH_EMULATOR_HOST: ' ' }),
      (error: unknown) => error instanceof ConfigError && /FIREBASE_AUTH_EMULATOR_HOST is blank/.test(error.message),
    );
  });

  it('takes every secret from a file named by <NAME>_FILE, refusing both ways at once or a file it cannot read', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'secret-files-'));
    const secretFile = (name: string, content: string) => {
      const file = path.join(folder, name);
      writeFileSync(file, `${content}\n`);
      return file;
    };
    const databaseUrl = 'postgres://portal:a-long-database-password@db.internal:5432/portal';
    const ingestToken = 'i'.repeat(40);
    const metricsToken = 'm'.repeat(40);
    const smtpUrl = 'smtps://mailer:a-relay-password@relay.internal:465';
    const fromFiles = loadConfig({
      ...valid,
      DATABASE_URL_FILE: secretFile('database-url', databaseUrl),
      INGEST_TOKEN_FILE: secretFile('ingest-token', ingestToken),
      METRICS_TOKEN_FILE: secretFile('metrics-token', metricsToken),
      SMTP_URL_FILE: secretFile('smtp-url', smtpUrl),
      MAIL_FROM: 'portal@example.com',
      PORTAL_URL: 'https://portal.example.com',
    });
    assert.equal(fromFiles.databaseUrl, databaseUrl);
    assert.deepEqual(
      fromFiles,
      loadConfig({
        ...valid,
        DATABASE_URL: databaseUrl,
        INGEST_TOKEN: ingestToken,
        METRICS_TOKEN: metricsToken,
        SMTP_URL: smtpUrl,
        MAIL_FROM: 'portal@example.com',
        PORTAL_URL: 'https://portal.example.com',
      }),
    );
    for (const name of SECRET_FILE_SETTINGS) {
      assert.match(
        problemsOf({ ...valid, [`${name}_FILE`]: secretFile(name, 'x'), [name]: 'y' }).join('\n'),
        new RegExp(`${name}_FILE and ${name} are both set`),
      );
      assert.match(
        problemsOf({ ...valid, [`${name}_FILE`]: path.join(folder, 'missing') }).join('\n'),
        new RegExp(`${name}_FILE cannot be read \\(ENOENT\\)`),
      );
    }
    rmSync(folder, { recursive: true, force: true });
  });

  it('offers <NAME>_FILE for every setting whose name says it holds a secret, so a new secret cannot miss it', () => {
    const secretByName = /(^|_)(TOKEN|TOKEN_PREVIOUS|PASSWORD|SECRET|DSN|KEY)$|^(DATABASE|SMTP)_URL$/;
    // Firebase's Web API key is no secret: the SPA hands it to every browser.
    const secrets = SETTING_NAMES.filter((name) => secretByName.test(name) && name !== 'FIREBASE_API_KEY');
    assert.ok(secrets.includes('DATABASE_URL') && secrets.includes('SMTP_URL') && secrets.includes('INGEST_TOKEN'));
    assert.deepEqual([...SECRET_FILE_SETTINGS].sort(), secrets.sort());
  });

  it('serves SCIM only with a token, from the variable or a file, with the previous token accepted beside it', () => {
    assert.equal(loadConfig(valid).scim, undefined);
    const token = 'a'.repeat(40);
    const previous = 'b'.repeat(40);
    assert.deepEqual(loadConfig({ ...valid, SCIM_TOKEN: token }).scim?.tokens, [token]);
    assert.deepEqual(loadConfig({ ...valid, SCIM_TOKEN: token, SCIM_TOKEN_PREVIOUS: previous }).scim?.tokens, [
      token,
      previous,
    ]);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'scim-token-'));
    const file = path.join(folder, 'token');
    writeFileSync(file, `${token}\n`);
    assert.deepEqual(loadConfig({ ...valid, SCIM_TOKEN_FILE: file }).scim?.tokens, [token]);
    assert.match(problemsOf({ ...valid, SCIM_TOKEN_FILE: file, SCIM_TOKEN: token }).join('\n'), /both set/);
    assert.match(problemsOf({ ...valid, SCIM_TOKEN_FILE: path.join(folder, 'missing') }).join('\n'), /ENOENT/);
    assert.match(problemsOf({ ...valid, SCIM_TOKEN: 'short' }).join('\n'), /SCIM_TOKEN must be at least 32/);
    assert.match(problemsOf({ ...valid, SCIM_TOKEN_PREVIOUS: previous }).join('\n'), /only beside SCIM_TOKEN/);
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps audit entries 400 days unless told otherwise, and has generous per-user download limits', () => {
    const config = loadConfig(valid);
    assert.equal(config.auditRetentionDays, 400);
    assert.deepEqual(config.rateLimits, {
      lookupsPerMinute: 20,
      downloadsPerHour: 600,
      unknownParcelsPerHour: 60,
      anonymousPerSecond: 20,
      anonymousConcurrency: 4,
      passkeyCeremoniesPerMinute: 30,
      scimPerMinute: 6000,
      scimRefusalsPerMinute: 10,
      invoiceSearchesPerMinute: 60,
      invoiceExportsPerDay: 2000,
    });
    assert.equal(loadConfig({ ...valid, AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays, 30);
  });

  it('gives finance and admin sign-ins a shorter life and an idle time, and no confirmation that outlives them', () => {
    const { sessionLifetimes } = loadConfig(valid);
    assert.deepEqual(sessionLifetimes, {
      userMs: 12 * 3_600_000,
      adminMs: 8 * 3_600_000,
      financeMs: 8 * 3_600_000,
      privilegedIdleMs: 30 * 60_000,
    });
    const custom = loadConfig({ ...valid, FINANCE_SESSION_MAX_AGE_HOURS: '4', PRIVILEGED_SESSION_IDLE_MINUTES: '15' });
    assert.equal(custom.sessionLifetimes.financeMs, 4 * 3_600_000);
    assert.equal(custom.sessionLifetimes.privilegedIdleMs, 15 * 60_000);
    assert.match(
      problemsOf({ ...valid, FINANCE_SESSION_MAX_AGE_HOURS: '0.1' }).join('\n'),
      /ADMIN_STEP_UP_MAX_AGE_SECONDS must not exceed FINANCE_SESSION_MAX_AGE_HOURS/,
    );
  });

  it('refuses the Auth emulator in production mode, even for a demo- project', () => {
    const emulator = { FIREBASE_PROJECT_ID: 'demo-portal', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
    const database = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' };
    assert.throws(
      () => loadConfig({ ...emulator, ...database, NODE_ENV: 'production' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /FIREBASE_AUTH_EMULATOR_HOST must not be set when NODE_ENV is production/.test(error.message),
    );
    // The same settings outside production are the local and test setup.
    assert.equal(loadConfig({ ...emulator, ...database, NODE_ENV: 'test' }).firebase.emulatorHost, '127.0.0.1:9099');
    assert.equal(loadConfig({ ...emulator, ...database }).firebase.emulatorHost, '127.0.0.1:9099');
  });

  it('refuses the embedded database in production mode or for more than one instance', () => {
    // Production also refuses the emulator, so it is tried with a real project's settings.
    const realProject = { FIREBASE_PROJECT_ID: 'real-project', FIREBASE_API_KEY: 'k', ...PASSKEY_HOST };
    for (const env of [
      { ...realProject, NODE_ENV: 'production' },
      { ...valid, INSTANCES: '2' },
    ]) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) =>
          error instanceof ConfigError && /DATABASE_URL is required when .*PGlite\) serves one/.test(error.message),
      );
      const config = loadConfig({ ...env, DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' });
      assert.equal(config.databaseUrl, 'postgres://u:p@127.0.0.1:5432/db');
    }
  });

  it('sends invoice bytes itself unless told nginx does', () => {
    assert.equal(loadConfig(valid).invoiceDelivery, 'direct');
    assert.equal(loadConfig({ ...valid, INVOICE_DELIVERY: 'x-accel-redirect' }).invoiceDelivery, 'x-accel-redirect');
    assert.throws(() => loadConfig({ ...valid, INVOICE_DELIVERY: 'sendfile' }), ConfigError);
  });

  it('refuses every secret the repository ships as an example, saying what to do instead', () => {
    const repoFile = (name: string) => readFileSync(new URL(`../../../${name}`, import.meta.url), 'utf8');
    const secretExample = repoFile('deploy/kubernetes/secret.example.yaml');
    const shipped = (name: string) => new RegExp(`^  ${name}: (.+)$`, 'm').exec(secretExample)?.[1] ?? '';
    const composePassword = /^POSTGRES_PASSWORD=(.+)$/m.exec(repoFile('deploy/compose.env.example'))?.[1] ?? '';
    const examples = {
      INGEST_TOKEN: shipped('INGEST_TOKEN'),
      METRICS_TOKEN: shipped('METRICS_TOKEN'),
      DATABASE_URL: shipped('DATABASE_URL'),
    };
    assert.ok(
      Object.values(examples).every((value) => value !== '') && composePassword !== '',
      'the examples were read',
    );
    const problems = problemsOf({ ...valid, ...examples });
    for (const name of Object.keys(examples)) {
      assert.ok(
        problems.some(
          (problem) => problem.startsWith(`${name} `) && /anyone who has read the repository/.test(problem),
        ),
        `${name} refused: ${problems.join('; ')}`,
      );
    }
    assert.ok(
      problems.some((problem) => /openssl rand/.test(problem)),
      'says how to make one',
    );
    const viaCompose = problemsOf({
      ...valid,
      DATABASE_URL: `postgres://portal:${composePassword}@postgres:5432/portal`,
    });
    assert.match(viaCompose.join('\n'), /DATABASE_URL has the example password of deploy\/compose.env.example/);
    // Tokens of one's own, and a password of one's own, are taken.
    const own = loadConfig({
      ...valid,
      INGEST_TOKEN: 'a'.repeat(40),
      METRICS_TOKEN: 'b'.repeat(40),
      DATABASE_URL: 'postgres://portal:s3cret-of-our-own@db:5432/portal',
    });
    assert.equal(own.ingestToken, 'a'.repeat(40));
  });

  it("requires the passkeys' host and origins in production, and derives them from the request elsewhere", () => {
    const production = {
      FIREBASE_PROJECT_ID: 'real-project',
      FIREBASE_API_KEY: 'k',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      NODE_ENV: 'production',
    };
    const problems = problemsOf(production);
    assert.equal(problems.length, 1, problems.join('; '));
    assert.match(problems[0]!, /^WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS are required when NODE_ENV is production/);
    assert.match(problems[0]!, /X-Forwarded-Host/);
    assert.deepEqual(loadConfig({ ...production, ...PASSKEY_HOST }).webauthn, {
      rpId: 'portal.example.com',
      origins: ['https://portal.example.com'],
    });
    for (const NODE_ENV of ['development', 'test']) {
      assert.equal(loadConfig({ ...production, NODE_ENV }).webauthn, undefined, `${NODE_ENV}: from each request`);
    }
  });

  it("requires PORTAL_URL for mail in production, and never takes the mail's link from a request elsewhere", () => {
    const production = {
      FIREBASE_PROJECT_ID: 'real-project',
      FIREBASE_API_KEY: 'k',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://relay.example.com:587?requireTLS=true',
      ...PASSKEY_HOST,
    };
    const problems = problemsOf(production);
    assert.equal(problems.length, 1, problems.join('; '));
    assert.match(problems[0]!, /^PORTAL_URL is required with SMTP_URL when NODE_ENV is production/);
    assert.equal(
      loadConfig({ ...production, PORTAL_URL: 'https://portal.example.com/' }).portalUrl,
      'https://portal.example.com',
    );
    const { SMTP_URL: _relay, ...withoutMail } = production;
    assert.deepEqual(problemsOf(withoutMail), []);
    assert.equal(loadConfig({ ...valid, PORT: '8123' }).portalUrl, 'http://localhost:8123');
  });

  it('takes INGEST_TOKEN_NETWORKS behind proxies TRUST_PROXY names by address, never behind a hop count', () => {
    const networks = { ...valid, INGEST_TOKEN_NETWORKS: '10.0.7.0/24' };
    assert.match(
      problemsOf({ ...networks, TRUST_PROXY: '1' }).join('\n'),
      /^INGEST_TOKEN_NETWORKS needs TRUST_PROXY to list the proxies' addresses .* not a hop count/m,
    );
    assert.deepEqual(loadConfig({ ...networks, TRUST_PROXY: '10.0.4.21' }).trustProxy, ['10.0.4.21']);
    assert.equal(loadConfig(networks).trustProxy, false, 'no proxy: the connecting address itself');
    assert.equal(loadConfig({ ...valid, TRUST_PROXY: '1' }).trustProxy, 1, 'a count alone is still taken');
  });

  it('takes a trace context from callers only when TRUST_TRACE_CONTEXT asks, and only behind TRUST_PROXY', () => {
    assert.match(
      problemsOf({ ...valid, TRUST_TRACE_CONTEXT: 'true' }).join(),
      /^TRUST_TRACE_CONTEXT needs TRUST_PROXY/,
    );
    assert.deepEqual(problemsOf({ ...valid, TRUST_TRACE_CONTEXT: 'true', TRUST_PROXY: '127.0.0.1' }), []);
    assert.match(
      problemsOf({ ...valid, TRUST_TRACE_CONTEXT: 'yes' }).join(),
      /TRUST_TRACE_CONTEXT must be true or false/,
    );
  });

  it('refuses in production any token that can be guessed, and says how to make one', () => {
    const production = {
      FIREBASE_PROJECT_ID: 'real-project',
      FIREBASE_API_KEY: 'k',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      NODE_ENV: 'production',
      SCIM_EMAIL_DOMAINS: 'example.com',
      ...PASSKEY_HOST,
    };
    const guessable = {
      INGEST_TOKEN: 'a'.repeat(40),
      METRICS_TOKEN: 'abcdefghijklmnopqrstuvwxyz0123456789',
      SCIM_TOKEN: 'passwordpassword-passwordpassword1',
      SCIM_TOKEN_PREVIOUS: '0123456789abcdef0123456789abcdef',
    };
    const problems = problemsOf({ ...production, ...guessable });
    for (const name of Object.keys(guessable)) {
      const problem = problems.find((text) => text.startsWith(`${name} `));
      assert.ok(problem, `${name} refused: ${problems.join('; ')}`);
      assert.match(problem, /openssl rand -base64 32/);
      assert.ok(!problem.includes(guessable[name as keyof typeof guessable]), 'the value is not repeated');
    }
    // What `openssl rand` makes passes, whatever its alphabet, a hex token of 32 characters included.
    const made = {
      INGEST_TOKEN: 'q7Jx2mP9vL4sT8wR1cY6nB3kH5dF0gZaEuIoXeWtMi0=',
      METRICS_TOKEN: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      SCIM_TOKEN: '3c59dc048e8850243be8079a5c74d079',
      SCIM_TOKEN_PREVIOUS: 'kV3_mQ8-zR2xW7pL5nT9bY4cH6jD1fGs0aEuIoXe',
    };
    assert.deepEqual(problemsOf({ ...production, ...made }), []);
    // Outside production the tests' and the demo's tokens stay accepted.
    assert.equal(loadConfig({ ...valid, INGEST_TOKEN: 'a'.repeat(40) }).ingestToken, 'a'.repeat(40));
  });

  it('refuses an http:// passkey origin in production, but for http://localhost', () => {
    const production = {
      FIREBASE_PROJECT_ID: 'real-project',
      FIREBASE_API_KEY: 'k',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      NODE_ENV: 'production',
      WEBAUTHN_RP_ID: 'portal.example.com',
    };
    const problems = problemsOf({
      ...production,
      WEBAUTHN_ORIGINS: 'https://portal.example.com,http://portal.example.com',
    });
    assert.equal(problems.length, 1, problems.join('; '));
    assert.match(problems[0]!, /^WEBAUTHN_ORIGINS names http:\/\/portal\.example\.com: .* must be https/);
    for (const origin of ['http://localhost:8080', 'http://127.0.0.1:43001', 'http://[::1]:8080']) {
      assert.deepEqual(
        problemsOf({ ...production, WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: origin }),
        [],
        origin,
      );
    }
    assert.match(
      problemsOf({ ...production, WEBAUTHN_ORIGINS: 'http://localhost.example.com' }).join(),
      /must be https/,
    );
    assert.deepEqual(
      loadConfig({ ...production, NODE_ENV: 'test', WEBAUTHN_ORIGINS: 'http://portal.example.com' }).webauthn?.origins,
      ['http://portal.example.com'],
      'outside production a test stack may run on plain http',
    );
  });

  it("refuses in production a SCIM token the repository's README shows, which npm start may use elsewhere", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const shown = /Bearer ([\w-]{32,})/.exec(readme)?.[1];
    assert.ok(shown, "the README's demo token was read");
    // A token of the operator's own, as `openssl rand -base64 32` makes one: production's other rules pass it.
    const OWN_TOKEN = 'q7Jx2mP9vL4sT8wR1cY6nB3kH5dF0gZaEuIoXeWtMi0=';
    const production = {
      FIREBASE_PROJECT_ID: 'real-project',
      FIREBASE_API_KEY: 'k',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      NODE_ENV: 'production',
      SCIM_EMAIL_DOMAINS: 'example.com',
      ...PASSKEY_HOST,
    };
    for (const name of ['SCIM_TOKEN', 'SCIM_TOKEN_PREVIOUS']) {
      const problems = problemsOf({ ...production, SCIM_TOKEN: OWN_TOKEN, [name]: shown });
      assert.match(problems.join('\n'), new RegExp(`^${name} is the example value of README.md`, 'm'), name);
    }
    assert.equal(loadConfig({ ...production, SCIM_TOKEN: OWN_TOKEN }).scim?.tokens[0], OWN_TOKEN);
    assert.deepEqual(loadConfig({ ...valid, SCIM_TOKEN: shown }).scim?.tokens, [shown], 'npm start runs with it');
  });

  it("takes the directory's networks, domains and roles, and requires the domains in production", () => {
    const scim = (env: Record<string, string>) => loadConfig({ ...valid, SCIM_TOKEN: 'a'.repeat(40), ...env }).scim;
    assert.deepEqual(scim({}), {
      tokens: ['a'.repeat(40)],
      networks: undefined,
      emailDomains: [],
      assignableRoles: [],
    });
    assert.deepEqual(
      scim({
        SCIM_TOKEN_NETWORKS: '20.36.0.0/14, 2603:1000::/24',
        SCIM_EMAIL_DOMAINS: 'Example.com, example.co.uk',
        SCIM_ASSIGNABLE_ROLES: 'finance, Admin',
      }),
      {
        tokens: ['a'.repeat(40)],
        networks: ['20.36.0.0/14', '2603:1000::/24'],
        emailDomains: ['example.com', 'example.co.uk'],
        assignableRoles: ['finance', 'admin'],
      },
    );
    assert.match(
      problemsOf({ ...valid, SCIM_TOKEN_NETWORKS: 'login.microsoftonline.com' }).join('\n'),
      /SCIM_TOKEN_NETWORKS must be a comma-separated list of addresses or networks \(CIDR\) the company directory/,
    );
    assert.match(
      problemsOf({ ...valid, SCIM_EMAIL_DOMAINS: 'example.com,@example.org' }).join('\n'),
      /SCIM_EMAIL_DOMAINS must be a comma-separated list of e-mail domains .*"@example.org" is not one/,
    );
    assert.match(
      problemsOf({ ...valid, SCIM_ASSIGNABLE_ROLES: 'admin,owner' }).join('\n'),
      /SCIM_ASSIGNABLE_ROLES must be a comma-separated list of admin, finance \("owner"/,
    );
    const production = {
      FIREBASE_PROJECT_ID: 'real-project',
      FIREBASE_API_KEY: 'k',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      NODE_ENV: 'production',
      ...PASSKEY_HOST,
    };
    assert.deepEqual(problemsOf(production), [], 'without SCIM, no domains are needed');
    assert.match(
      problemsOf({ ...production, SCIM_TOKEN: 'a'.repeat(40) }).join('\n'),
      /SCIM_EMAIL_DOMAINS is required when NODE_ENV is production and SCIM_TOKEN is set/,
    );
  });

  it('takes the ingestion token from any network unless INGEST_TOKEN_NETWORKS names some', () => {
    assert.equal(loadConfig(valid).ingestNetworks, undefined);
    assert.deepEqual(loadConfig({ ...valid, INGEST_TOKEN_NETWORKS: '10.0.7.0/24, 2001:db8:7::/48' }).ingestNetworks, [
      '10.0.7.0/24',
      '2001:db8:7::/48',
    ]);
    assert.match(
      problemsOf({ ...valid, INGEST_TOKEN_NETWORKS: 'ingest.example.com' }).join('\n'),
      /INGEST_TOKEN_NETWORKS must be a comma-separated list of addresses or networks/,
    );
  });
});
