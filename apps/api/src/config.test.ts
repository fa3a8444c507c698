import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

const valid = { FIREBASE_PROJECT_ID: 'demo-portal', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };

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

  it('keeps audit entries 400 days unless told otherwise, and has generous per-user download limits', () => {
    const config = loadConfig(valid);
    assert.equal(config.auditRetentionDays, 400);
    assert.deepEqual(config.rateLimits, {
      lookupsPerMinute: 20,
      downloadsPerHour: 600,
      unknownParcelsPerHour: 60,
      passkeyCeremoniesPerMinute: 30,
    });
    assert.equal(loadConfig({ ...valid, AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays, 30);
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
    const realProject = { FIREBASE_PROJECT_ID: 'real-project', FIREBASE_API_KEY: 'k' };
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
});
