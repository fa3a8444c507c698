import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';

export const DOCS_PREFIX = '/api/docs';

const zodTransform = createJsonSchemaTransform({});

/** Where an operation's id comes from: `GET /api/users/:email` → `getUsersByEmail`. */
function operationIdOf(method: string, url: string) {
  const words = url
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

/**
 * The API's OpenAPI 3.1 description, generated from the routes' zod schemas (never written by hand), at
 * /api/openapi.json, with a readable page at /api/docs. Only /api routes and /config.json are described.
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Parcel Invoice Portal API',
          version: '1',
          description:
            'Signed-in callers send `Authorization: Bearer <Firebase ID token>`; the invoice-ingestion service sends ' +
            '`Authorization: Bearer <INGEST_TOKEN>`. Every error body is `{ message, code }` (`requestId` too on a 5xx); ' +
            'every response carries `X-Request-Id`.',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        servers: [{ url: '/' }],
        tags: [
          { name: 'invoices', description: 'Open and store invoice PDFs' },
          { name: 'users', description: 'The allowlist' },
          { name: 'audit', description: 'Who did what' },
          { name: 'passkeys', description: "Administrators' passkeys: set one up, confirm with it, reset a lost one" },
          { name: 'sessions', description: 'Sign out everywhere; end the sessions of a user' },
          { name: 'platform', description: 'Health and configuration' },
        ],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', description: 'Firebase ID token or service token' },
          },
        },
      },
      transform: (input) => {
        const { url, route } = input;
        if (!(url.startsWith('/api/') || url === '/config.json') || url.startsWith(DOCS_PREFIX)) {
          return { schema: { ...input.schema, hide: true }, url };
        }
        const transformed = zodTransform(input);
        const access = route.config?.access;
        const method = Array.isArray(route.method) ? route.method[0] : route.method;
        return {
          url: transformed.url,
          schema: {
            ...transformed.schema,
            operationId: operationIdOf(String(method), url),
            ...(access && access !== 'public' ? { security: [{ bearer: [] }] } : { security: [] }),
          },
        };
      },
    });

    // The description itself, public like the routes it describes.
    app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

    // The docs page's own routes declare no access; they are public like the description they show. The
    // hook lives in the page's own context, so it reaches those routes and no other: a route elsewhere whose
    // path merely starts with /api/docs keeps the access it declares (or fails start-up without one).
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: route.config?.access ?? 'public' };
      });
      await docs.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: false });
    });
  },
  { name: 'openapi' },
);
