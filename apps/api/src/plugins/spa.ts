import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from '../http/send-error.ts';
import { MAX_PATH_PARAM_LENGTH, PATH_TOO_LONG_MESSAGE } from './errors.ts';

/**
 * Serves the built SPA: hashed assets cached for a year, index.html for every client-side route.
 * API paths never fall through to index.html, so a wrong API path answers a JSON 404.
 * The build leaves a brotli and a gzip twin beside each text file; they are sent as they are
 * (`preCompressed`), chosen by Accept-Encoding with brotli first. Source maps are for error reporting
 * only: the build moves them out of the folder, and a stray one still answers 404.
 * A folder without a build yet is served once the build is there: `npm start` starts the API while the SPA
 * is still being built (decision 0127); until then its pages answer 404.
 */
const isSourceMap = (pathName: string) => pathName.endsWith('.map');

export default fp<{ distDir: string }>(
  async (app, options) => {
    const indexFile = path.join(options.distDir, 'index.html');
    let built = existsSync(indexFile);
    if (!built) app.log.warn({ distDir: options.distDir }, 'web build not found: run `npm run build` to serve the SPA');
    const isBuilt = () => (built ||= existsSync(indexFile));
    await app.register(fastifyStatic, {
      root: options.distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      allowedPath: (pathName) => !isSourceMap(pathName),
      setHeaders: (response, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        response.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/assets/*', { config: { access: 'page' } }, (request, reply) => {
      const requested = (request.params as { '*': string })['*'];
      if (isSourceMap(requested)) return sendError(request, reply, 404, 'Not found');
      return reply.sendFile(`assets/${requested}`);
    });
    const sendIndex = (request: FastifyRequest, reply: FastifyReply) =>
      isBuilt()
        ? reply.header('cache-control', 'no-cache').sendFile('index.html')
        : sendError(request, reply, 404, 'Not found');
    app.get('/', { config: { access: 'page' } }, sendIndex);
    app.get('/*', { config: { access: 'page' } }, (request, reply) => {
      const requested = (request.params as { '*': string })['*'];
      // /scim/ too: with SCIM off (no SCIM_TOKEN) a directory's call is told there is no such endpoint.
      if (requested.startsWith('api/') || requested.startsWith('scim/')) {
        // The router falls back to this route when a path parameter is over its limit: answer as it would.
        if (requested.split('/').some((segment) => segment.length > MAX_PATH_PARAM_LENGTH))
          return sendError(request, reply, 414, PATH_TOO_LONG_MESSAGE);
        return sendError(request, reply, 404, `No such endpoint: GET /${requested}`);
      }
      if (
        /^[\w.-]+\.(ico|png|svg|txt|webmanifest)$/.test(requested) &&
        existsSync(path.join(options.distDir, requested))
      ) {
        return reply.sendFile(requested);
      }
      return sendIndex(request, reply);
    });
  },
  { name: 'spa' },
);
