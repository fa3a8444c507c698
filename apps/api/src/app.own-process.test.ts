import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../test/helpers/test-app.ts';

// Why a process of its own (.own-process): Node warns of each deprecation once per process, so another file could hide one.

// Listening before the first app is built: Node emits each deprecation once per process.
const warnings: Error[] = [];
process.on('warning', (warning) => warnings.push(warning));

describe('the application shell', () => {
  const t = useTestApp({ env: { SENTRY_DSN: 'https://key@errors.example.com/7' } });

  it('starts without a warning (a deprecated option prints one on every start)', () => {
    assert.deepEqual(
      warnings.map((warning) => `${warning.name}: ${warning.message}`),
      [],
    );
  });

  it('reports health and readiness', async () => {
    assert.deepEqual((await t.app.inject({ url: '/api/healthz' })).json(), { status: 'ok' });
    assert.deepEqual((await t.app.inject({ url: '/api/readyz' })).json(), { status: 'ready' });
  });

  it('serves the runtime configuration for the SPA', async () => {
    const config = (await t.app.inject({ url: '/config.json' })).json();
    assert.equal(config.apiBaseUrl, '/api');
    assert.equal(config.firebase.projectId, t.config.firebase.projectId);
    assert.equal(config.authEmulatorUrl, `http://${t.config.firebase.emulatorHost}`);
    // Browser events carry the release the server answers at /api/version (the source maps' name).
    const { release } = (await t.app.inject({ url: '/api/version' })).json();
    assert.deepEqual(config.sentry, { dsn: 'https://key@errors.example.com/7', environment: 'L1', release });
    assert.equal(config.supportContact, 'the UK IT team');
  });

  it('sends strict security headers that still allow a blob: PDF frame', async () => {
    const response = await t.app.inject({ url: '/api/healthz' });
    const csp = String(response.headers['content-security-policy']);
    assert.match(csp, /frame-src 'self' blob:/);
    assert.match(csp, /frame-ancestors 'self'/);
    assert.match(csp, /object-src 'none'/);
    assert.match(csp, /connect-src [^;]*https:\/\/errors\.example\.com/);
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['referrer-policy'], 'strict-origin-when-cross-origin');
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const response = await t.app.inject({ url: '/api/nope' });
    assert.equal(response.statusCode, 404);
    assert.match(response.json().message, /No such endpoint/);
  });

  it('records refused requests in the audit log', async () => {
    await t.app.inject({ url: '/api/users/x@example.com', headers: { authorization: 'Basic abc' } });
    await t.app.domain.auditWriter.flush();
    const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
    assert.equal(entry?.outcome, 'refused');
    assert.match(entry?.detail ?? '', /^401/);
  });
});
