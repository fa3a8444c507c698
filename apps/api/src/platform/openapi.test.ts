import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { portalApp } from '../app.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

interface Operation {
  operationId?: string;
  responses?: Record<string, unknown>;
}

describe('the OpenAPI description', () => {
  const t = useTestApp();
  const declared: { method: string; url: string; statuses: string[] }[] = [];
  let document: { openapi: string; paths: Record<string, Record<string, Operation>> };

  const seen = Fastify();
  before(async () => {
    // The same app plugin on a bare instance that first notes every route it is given, with its schema.
    seen.setValidatorCompiler(validatorCompiler);
    seen.setSerializerCompiler(serializerCompiler);
    seen.addHook('onRoute', (route: RouteOptions) => {
      const hidden = (route.schema as { hide?: boolean } | undefined)?.hide;
      if (!route.url.startsWith('/api/') || hidden) return;
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        declared.push({ method, url: route.url, statuses: Object.keys(route.schema?.response ?? {}) });
      }
    });
    await seen.register(portalApp, t);
    await seen.ready();
    document = (await t.app.inject({ url: '/api/openapi.json' })).json();
  });
  after(() => seen.close());

  it('is OpenAPI 3.1, served publicly at /api/openapi.json', async () => {
    const response = await t.app.inject({ url: '/api/openapi.json' });
    assert.equal(response.statusCode, 200);
    assert.equal(document.openapi, '3.1.0');
  });

  it('describes every API route with every response it declares', () => {
    assert.ok(declared.length >= 10, `only ${declared.length} routes seen`);
    for (const { method, url, statuses } of declared) {
      const path = url.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[method.toLowerCase()];
      assert.ok(operation, `${method} ${url} is missing`);
      assert.ok(operation.operationId, `${method} ${url} has no operationId`);
      assert.ok(statuses.length > 0, `${method} ${url} declares no responses`);
      assert.deepEqual(Object.keys(operation.responses ?? {}).sort(), statuses.sort(), `${method} ${url} responses`);
    }
  });

  it('gives every error response the { message, code } body', () => {
    const errorBody = document.paths['/api/users/{email}']?.get?.responses?.['404'] as {
      content: { 'application/json': { schema: { required: string[] } } };
    };
    assert.deepEqual(errorBody.content['application/json'].schema.required.sort(), ['code', 'message']);
  });

  it('has a readable docs page', async () => {
    const page = await t.app.inject({ url: '/api/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
  });

  it('makes only the docs page public: other routes under /api/docs keep the access they declare', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(portalApp, t);
    for (const url of ['/api/docs-private', '/api/docs/private']) {
      app.get(url, { config: { access: 'admin' } }, async () => ({ secret: true }));
    }
    try {
      await app.ready();
      for (const url of ['/api/docs-private', '/api/docs/private']) {
        const anonymous = await app.inject({ url });
        assert.equal(anonymous.statusCode, 401, `${url}: ${anonymous.body}`);
      }
      assert.equal((await app.inject({ url: '/api/docs/' })).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});
