import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { STEP_UP_MESSAGE } from '../src/passkeys/passkey-ceremonies.ts';
import { STEP_UP_HEADER } from '../src/passkeys/step-up-secret.ts';
import { managedByDirectoryMessage, SELF_REMOVAL_MESSAGE } from '../src/users/user-admin.ts';
import { fakePdf, sha256Of } from './helpers/fixtures.ts';
import { signUp } from './helpers/tokens.ts';
import { useTestApp } from './helpers/test-app.ts';

/**
 * SPEC.md §7's calls, sent exactly as it describes them: the bearer header and nothing else, the listed paths
 * (under the backend's base, `/api`), the listed payloads. Where the product answers otherwise, the answer is
 * asserted as docs/product/deliberate-readings.md states it, and the statement is looked for there: a departure
 * that is not written down, or no longer true, fails here.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SPEC_PATH = path.resolve(REPO_ROOT, '../shared/SPEC.md');
// Read as one line: a statement may wrap anywhere in the file.
const readings = readFileSync(path.join(REPO_ROOT, 'docs/product/deliberate-readings.md'), 'utf8').replace(/\s+/g, ' ');

/** The calls SPEC.md §7 lists, one name each, as this test names them. */
const SPEC_CALLS = [
  'GET /users',
  'GET /users/<email>',
  'POST /users/<email>',
  'POST /users',
  'DELETE /users/<email>',
  'PUT /users/<email>',
  'GET /invoice',
];

/** §7's table, its first column read as "METHOD /path" with "followed by the … e-mail" as `<email>`. */
function specCalls(): string[] {
  let spec: string;
  try {
    spec = readFileSync(SPEC_PATH, 'utf8');
  } catch {
    throw new Error(`SPEC.md is read from ../shared/SPEC.md beside the repository (${SPEC_PATH}): it is missing.`);
  }
  const section = spec.slice(spec.indexOf('## 7.'), spec.indexOf('## 8.'));
  return section
    .split('\n')
    .filter((line) => /^\| (GET|POST|PUT|DELETE) \//.test(line))
    .map((line) => {
      const cell = line.split('|')[1]!.trim();
      const [method, route] = cell.split(' ');
      return `${method} ${route!.replace(/\/$/, '')}${/followed by/.test(cell) ? '/<email>' : ''}`;
    });
}

/** Each departure this file asserts, with the words deliberate-readings.md states it in. */
const DEPARTURES = {
  stepUp: 'every admin call also needs the step-up secret',
  stepUpBody: `403 with the code \`step-up-required\` and the message "${STEP_UP_MESSAGE}"`,
  directoryRows: 'A row the company directory keeps',
  directoryDeactivated: '`suspended: true`',
  ownAccount: 'An administrator cannot delete their own row',
  registerChangesNothing: 'The register call (`POST /users`) changes nothing',
  activateChangesNothing: '`PUT /users/<email>` after the reset mail is still sent and accepted, and changes nothing',
  notAllowlisted: 'an account that is not on the allowlist gets 401 from every user call',
  foreignAccount: 'the create answers 409 `foreign-account` and leaves that account alone',
  apiBase: "the backend's base is the portal's origin followed by `/api`",
};

const ADMIN = 'admin@example.com';
const USER = 'user@example.com';
const bearerOnly = (idToken: string) => ({ authorization: `Bearer ${idToken}` });
const json = { 'content-type': 'application/json' };

describe('SPEC.md §7, called as it is written', () => {
  const t = useTestApp({
    env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '10000', RATE_LIMIT_ANONYMOUS_PER_SECOND: '10000' },
  });

  /** The admin call as an integration written against SPEC.md sends it, and again with the step-up secret. */
  async function adminCall(idToken: string, request: { method: 'GET' | 'POST' | 'DELETE'; url: string; json?: true }) {
    const headers = { ...bearerOnly(idToken), ...(request.json ? json : {}) };
    const asSpecified = await t.app.inject({ method: request.method, url: request.url, headers });
    assert.equal(asSpecified.statusCode, 403, asSpecified.body);
    assert.deepEqual(asSpecified.json(), { message: STEP_UP_MESSAGE, code: 'step-up-required' });
    const stepUp = t.bearer(idToken)[STEP_UP_HEADER];
    assert.ok(stepUp, 'the admin confirmed with a passkey, as on the admin page');
    return t.app.inject({
      method: request.method,
      url: request.url,
      headers: { ...headers, [STEP_UP_HEADER]: stepUp },
    });
  }

  it('lists exactly the calls SPEC.md §7 lists', () => {
    assert.deepEqual(specCalls(), SPEC_CALLS);
  });

  it('states each departure asserted here in deliberate-readings.md', () => {
    for (const [name, statement] of Object.entries(DEPARTURES))
      assert.ok(readings.includes(statement), `deliberate-readings.md does not state "${statement}" (${name})`);
  });

  it('serves the calls under the backend base /api, not at the bare paths', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    const bare = await t.app.inject({ url: '/users', headers: t.bearer(admin.idToken) });
    assert.equal(bare.statusCode, 404, bare.body);
    const based = await t.app.inject({ url: '/api/users', headers: t.bearer(admin.idToken) });
    assert.equal(based.statusCode, 200);
  });

  it('GET /users with the bearer token: 403 step-up-required; with the step-up secret, the allowed users, each with an email', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    await t.createAccount(USER);
    const response = await adminCall(admin.idToken, { method: 'GET', url: '/api/users' });
    assert.equal(response.statusCode, 200, response.body);
    const list = response.json<{ email: string }[]>();
    assert.deepEqual(list.map((user) => user.email).sort(), [ADMIN, USER]);
  });

  it('GET /users lists a person the directory deactivated, marked suspended: true', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    await t.app.domain.users.insert({
      email: 'gone@example.com',
      admin: false,
      finance: false,
      activated: true,
      registered: true,
      managedBy: 'scim',
      suspended: true,
    });
    const response = await adminCall(admin.idToken, { method: 'GET', url: '/api/users' });
    const gone = response.json<{ email: string; suspended?: boolean; managedBy?: string }[]>();
    assert.deepEqual(
      gone
        .filter((user) => user.email === 'gone@example.com')
        .map(({ suspended, managedBy }) => ({ suspended, managedBy })),
      [{ suspended: true, managedBy: 'directory' }],
    );
    // Refused at sign-in, and unknown to the lookup (the forgot-password e-mail check).
    const lookup = await t.app.inject({ url: '/api/users/gone@example.com' });
    assert.equal(lookup.statusCode, 404);
  });

  it('GET /users/<email>: without a token (login page) activated; with the bearer token also admin; failure returns the error response', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    await t.createAccount(USER, { activated: false });
    const anonymous = await t.app.inject({ url: `/api/users/${USER}` });
    assert.equal(anonymous.statusCode, 200);
    assert.equal(anonymous.json().activated, false);
    const withToken = await t.app.inject({ url: `/api/users/${ADMIN}`, headers: bearerOnly(admin.idToken) });
    assert.equal(withToken.statusCode, 200);
    assert.equal(withToken.json().admin, true);
    const unknown = await t.app.inject({ url: '/api/users/nobody@example.com' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(typeof unknown.json().message, 'string');
  });

  it('an account not on the allowlist gets 401 from a call with its bearer token', async () => {
    const outsider = await signUp('outsider@example.com');
    const response = await t.app.inject({
      url: '/api/users/outsider@example.com',
      headers: bearerOnly(outsider.idToken),
    });
    assert.equal(response.statusCode, 401);
    assert.equal(typeof response.json().message, 'string');
  });

  it('POST /users/<email> with the bearer token, JSON content type and an empty body: 403 step-up-required; with the secret it creates the user', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    const created = await adminCall(admin.idToken, { method: 'POST', url: '/api/users/new@example.com', json: true });
    assert.equal(created.statusCode, 201, created.body);
    const again = await adminCall(admin.idToken, { method: 'POST', url: '/api/users/new@example.com', json: true });
    assert.equal(again.statusCode, 409);
    assert.equal(typeof again.json().message, 'string', 'a create failure carries the message field');
    await signUp('held@example.com');
    const held = await adminCall(admin.idToken, { method: 'POST', url: '/api/users/held@example.com', json: true });
    assert.equal(held.statusCode, 409);
    assert.equal(held.json().code, 'foreign-account');
  });

  it('POST /users with JSON content type, no auth header and { userId }: 200, and it changes nothing', async () => {
    const listed = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: json,
      payload: JSON.stringify({ userId: 'stranger@example.com' }),
    });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.equal(await t.app.domain.users.findByEmail('stranger@example.com'), undefined);
  });

  it('DELETE /users/<email> with the bearer token: 403 step-up-required; with the secret it deletes the user', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    await t.createAccount(USER);
    const deleted = await adminCall(admin.idToken, { method: 'DELETE', url: `/api/users/${USER}` });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.equal(await t.app.domain.users.findByEmail(USER), undefined);
  });

  it('DELETE /users/<email> of a row the directory keeps, or of the caller: 409 with the reason', async () => {
    const admin = await t.createAccount(ADMIN, { admin: true });
    await t.app.domain.users.insert({
      email: 'kept@example.com',
      admin: false,
      finance: false,
      activated: true,
      registered: true,
      managedBy: 'scim',
    });
    const kept = await adminCall(admin.idToken, { method: 'DELETE', url: '/api/users/kept@example.com' });
    assert.equal(kept.statusCode, 409);
    assert.deepEqual(kept.json(), {
      message: managedByDirectoryMessage('kept@example.com'),
      code: 'managed-by-directory',
    });
    const own = await adminCall(admin.idToken, { method: 'DELETE', url: `/api/users/${ADMIN}` });
    assert.equal(own.statusCode, 409);
    assert.equal(own.json().message, SELF_REMOVAL_MESSAGE);
  });

  it('PUT /users/<email> with JSON content type and { activated: true }: 200, and the server keeps activated itself', async () => {
    await t.createAccount(USER, { activated: false });
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${USER}`,
      headers: json,
      payload: JSON.stringify({ activated: true }),
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal((await t.app.domain.users.findByEmail(USER))?.activated, false);
  });

  it('GET /invoice?parcelCode= with the bearer token: the PDF as binary data; the same call again reloads it', async () => {
    const pdf = fakePdf('spec');
    const blob = await t.blobStore.put(pdf, { maxBytes: t.config.maxInvoiceBytes });
    await t.app.domain.invoices.recordVersion({ parcelCode: 'SPEC-1', uploadedBy: 'test', ...blob });
    const user = await t.createAccount(USER);
    for (let call = 0; call < 2; call++) {
      const response = await t.app.inject({ url: '/api/invoice?parcelCode=SPEC-1', headers: bearerOnly(user.idToken) });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'application/pdf');
      assert.equal(sha256Of(response.rawPayload), sha256Of(pdf));
    }
    // Any other status is the spec's "Please double check your parcel code…": an unknown code answers 404.
    const unknown = await t.app.inject({ url: '/api/invoice?parcelCode=NOPE-1', headers: bearerOnly(user.idToken) });
    assert.equal(unknown.statusCode, 404);
  });
});
