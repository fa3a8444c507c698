import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { portalApp } from '../app.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

const SCIM_TOKEN = 'scim-test-token-for-empty-bodies-0123456789';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What clients name on a request with nothing in it: JSON, SCIM's JSON, a form, text, bytes. */
const CONTENT_TYPES = [
  'application/json',
  'application/scim+json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/octet-stream',
];
/** A route that declares no body schema and still takes one: the invoice's bytes, of the invoice types only. */
const TAKES_RAW_BYTES = new Set(['PUT /api/invoices/:parcelCode']);
/** An empty body said two ways: a length of zero, or no length at all (as curl sends a DELETE). */
const EMPTY_FORMS = [{ 'content-length': '0' }, {}];

/** A target that does not exist, so a call that would change something finds nothing to change. */
const PARAMS: Record<string, string> = {
  email: 'nobody-here@example.com',
  parcelCode: 'NOSUCHCODE1',
  warningId: '00000000-0000-4000-8000-000000000000',
  id: '00000000-0000-4000-8000-000000000000',
};
const pathOf = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => PARAMS[name] ?? 'x');

describe('a request that names a content type and sends no body', () => {
  const t = useTestApp({ env: { SCIM_TOKEN, IDENTITY_TIMEOUT_MS: '15000' } });
  const routes: { method: string; url: string }[] = [];
  /** Every error Fastify raised on the way, by its code (a refused body is FST_ERR_CTP_*). */
  const errorCodes: string[] = [];

  const seen = Fastify();
  before(async () => {
    // The same app plugin on a bare instance that first notes every route that may take a body but declares none.
    seen.setValidatorCompiler(validatorCompiler);
    seen.setSerializerCompiler(serializerCompiler);
    seen.addHook('onRoute', (route: RouteOptions) => {
      if (route.schema?.body) return;
      for (const method of [route.method].flat())
        if (BODY_METHODS.has(method) && !TAKES_RAW_BYTES.has(`${method} ${route.url}`))
          routes.push({ method, url: route.url });
    });
    seen.addHook('onError', async (_request, _reply, error) => void errorCodes.push(error.code ?? error.name));
    await seen.register(portalApp, t);
    await seen.ready();
  });
  after(() => seen.close());

  it('is never refused for its empty body or its type, on every route that declares no body', async () => {
    assert.ok(
      routes.some(({ method, url }) => method === 'DELETE' && url === '/scim/v2/Users/:id'),
      'the directory DELETE is among the routes',
    );
    assert.ok(routes.length >= 15, `only ${routes.length} routes seen`);
    const admin = await t.createAccount('admin@example.com', { admin: true, finance: true });
    const callerOf = async (url: string) => {
      if (url.startsWith('/scim/')) return { authorization: `Bearer ${SCIM_TOKEN}` };
      // Ending one's own sessions ends the token, and signing out forgets the passkey confirmation: each such
      // call gets a person of its own, so the admin's calls after it are still confirmed.
      if (url === '/api/me/sessions' || url === '/api/me/step-up') {
        const person = await t.createAccount(`person-${crypto.randomUUID()}@example.com`);
        return t.bearer(person.idToken);
      }
      return t.bearer(admin.idToken);
    };

    const refused: string[] = [];
    for (const { method, url } of routes) {
      for (const contentType of CONTENT_TYPES) {
        for (const emptyForm of EMPTY_FORMS) {
          errorCodes.length = 0;
          const response = await seen.inject({
            method: method as 'POST',
            url: pathOf(url),
            headers: { ...(await callerOf(url)), 'content-type': contentType, ...emptyForm },
          });
          const bodyRefused = errorCodes.filter((code) => code.startsWith('FST_ERR_CTP'));
          const what = `${method} ${url} (${contentType}, ${'content-length' in emptyForm ? 'length 0' : 'no length'})`;
          // Past the caller checks, so the body was looked at; and never refused for being empty or of that type.
          if ([401, 403].includes(response.statusCode))
            refused.push(`${what}: ${response.statusCode} ${response.body}`);
          if (bodyRefused.length > 0 || response.statusCode === 415 || response.statusCode >= 500) {
            assert.fail(`${what} answered ${response.statusCode} ${response.body} (${errorCodes.join(', ')})`);
          }
        }
      }
    }
    assert.deepEqual(refused, [], 'every call got past the caller checks to its body');
  });

  it('the README example: a directory DELETE with the SCIM content type removes the person', async () => {
    await t.app.domain.users.insert({ email: 'leaver@example.com', admin: false, activated: true });
    // The directory removes only the people it keeps: this one, added on the portal, is adopted first.
    await t.app.domain.provisioning.adopt({ email: 'leaver@example.com', actor: 'cli:test' });
    const found = await t.app.inject({
      url: `/scim/v2/Users?filter=${encodeURIComponent('userName eq "leaver@example.com"')}`,
      headers: { authorization: `Bearer ${SCIM_TOKEN}` },
    });
    const id = (found.json() as { Resources: { id: string }[] }).Resources[0]?.id;
    assert.ok(id);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/scim/v2/Users/${id}`,
      headers: { authorization: `Bearer ${SCIM_TOKEN}`, 'content-type': 'application/scim+json' },
    });
    assert.equal(removed.statusCode, 204, removed.body);
    assert.equal(await t.app.domain.users.findByEmail('leaver@example.com'), undefined);
  });

  it('still parses a JSON body that is there, refuses a malformed one, and refuses a type it cannot read', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${SCIM_TOKEN}`, 'content-type': 'application/scim+json' },
      payload: '{"userName":',
    });
    assert.equal(malformed.statusCode, 400);
    const admin = await t.createAccount('admin@example.com', { admin: true });
    for (const headers of [{}, { 'transfer-encoding': 'chunked' }]) {
      const form = await t.app.inject({
        method: 'POST',
        url: '/api/users/someone@example.com',
        headers: { ...t.bearer(admin.idToken), 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: 'admin=true',
      });
      assert.equal(form.statusCode, 415, form.body);
    }
  });
});
