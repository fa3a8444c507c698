import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { signUp } from './helpers/tokens.ts';
import { useTestApp } from './helpers/test-app.ts';

type Caller = 'anonymous' | 'outsider' | 'user' | 'admin';
/** A status, or 'allowed' where the outcome depends on data this matrix does not set up (never 401/403). */
type Expected = number | 'allowed';

const endpoints: { name: string; request: InjectOptions; expect: Record<Caller, Expected> }[] = [
  {
    name: 'GET /users',
    request: { url: '/api/users' },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 200 },
  },
  {
    name: 'GET /users/:email',
    request: { url: '/api/users/target@example.com' },
    expect: { anonymous: 200, outsider: 401, user: 200, admin: 200 },
  },
  {
    name: 'POST /users/:email',
    request: { method: 'POST', url: '/api/users/new@example.com' },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 201 },
  },
  {
    name: 'POST /users',
    request: { method: 'POST', url: '/api/users', payload: { userId: 'target@example.com' } },
    expect: { anonymous: 200, outsider: 401, user: 200, admin: 200 },
  },
  {
    name: 'DELETE /users/:email',
    request: { method: 'DELETE', url: '/api/users/target@example.com' },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 200 },
  },
  {
    name: 'PUT /users/:email',
    request: { method: 'PUT', url: '/api/users/target@example.com', payload: { activated: true } },
    expect: { anonymous: 200, outsider: 401, user: 200, admin: 200 },
  },
  {
    name: 'POST /users/bulk-add',
    request: { method: 'POST', url: '/api/users/bulk-add', payload: { emails: ['bulk-new@example.com'] } },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 200 },
  },
  {
    name: 'POST /users/bulk-delete',
    request: { method: 'POST', url: '/api/users/bulk-delete', payload: { emails: ['target@example.com'] } },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 200 },
  },
  {
    name: 'GET /audit',
    request: { url: '/api/audit' },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 200 },
  },
  {
    name: 'GET /invoice',
    request: { url: '/api/invoice?parcelCode=DEMO000001' },
    expect: { anonymous: 401, outsider: 401, user: 'allowed', admin: 'allowed' },
  },
  {
    // Without single sign-on configured: nothing to link (its own checks: single-sign-on.databases.test.ts).
    name: 'POST /sso/link',
    request: { method: 'POST', url: '/api/sso/link', payload: { companyIdToken: 'not-a-token' } },
    expect: { anonymous: 401, outsider: 401, user: 404, admin: 404 },
  },
  {
    name: 'PUT /invoices/:parcelCode',
    request: {
      method: 'PUT',
      url: '/api/invoices/DEMO000001',
      headers: { 'content-type': 'application/pdf' },
      payload: '%PDF-1.4 tiny',
    },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 'allowed' },
  },
  {
    // The target has no role that needs a passkey: an admin is refused with 409, after the access check.
    name: 'POST /users/:email/enrollment-code',
    request: { method: 'POST', url: '/api/users/target@example.com/enrollment-code' },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 409 },
  },
  {
    name: 'GET /approvals',
    request: { url: '/api/approvals' },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 200 },
  },
  {
    name: 'POST /approvals/:id/approve',
    request: { method: 'POST', url: '/api/approvals/1/approve' },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 404 },
  },
  {
    name: 'POST /approvals/:id/reject',
    request: { method: 'POST', url: '/api/approvals/1/reject' },
    expect: { anonymous: 401, outsider: 401, user: 403, admin: 404 },
  },
];

describe('authorization matrix: every caller × every endpoint', () => {
  // Every endpoint for every caller in quick succession: no anonymous limit may get in the way.
  const t = useTestApp({
    env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '10000', RATE_LIMIT_ANONYMOUS_PER_SECOND: '10000' },
  });

  async function tokenOf(caller: Caller) {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    const outsider = await signUp('outsider@example.com');
    await t.createAccount('target@example.com', { activated: false });
    return { anonymous: undefined, outsider: outsider.idToken, user: user.idToken, admin: admin.idToken }[caller];
  }

  for (const endpoint of endpoints) {
    for (const caller of ['anonymous', 'outsider', 'user', 'admin'] as const) {
      const expected = endpoint.expect[caller];
      it(`${endpoint.name} as ${caller} → ${expected}`, async () => {
        const [method, url] = [endpoint.request.method ?? 'GET', String(endpoint.request.url).split('?')[0] ?? ''];
        // A route that is missing must fail here: a 404 could otherwise pass as 'allowed'.
        assert.ok(
          t.app.hasRoute({
            method,
            url: url
              .replace(/DEMO000001$/, ':parcelCode')
              .replace(/[^/]+@example\.com(?=\/|$)/, ':email')
              .replace(/\/approvals\/\d+\//, '/approvals/:id/'),
          }),
          `${endpoint.name} is not routed`,
        );
        const token = await tokenOf(caller);
        const headers = { ...(endpoint.request.headers ?? {}), ...(token ? t.bearer(token) : {}) };
        const response = await t.app.inject({ ...endpoint.request, headers });
        if (expected === 'allowed')
          assert.ok(![401, 403].includes(response.statusCode), `${response.statusCode} ${response.body}`);
        else assert.equal(response.statusCode, expected, response.body);
        if (response.statusCode >= 400) assert.equal(typeof response.json().message, 'string');
        if (response.statusCode === 401 || response.statusCode === 403) {
          await t.app.domain.auditWriter.flush();
          const [entry] = await t.app.domain.audit.list({ limit: 1, offset: 0 });
          assert.equal(entry?.outcome, 'refused', 'every refusal is audited');
        }
      });
    }
  }
});
