import type { FastifyInstance } from 'fastify';

/**
 * The spec's create call sends `Content-Type: application/json` with an empty body, which Fastify's own
 * parser refuses. Within the calling plugin only, an empty JSON body now parses as "no body"; anything
 * else still goes through Fastify's parser (and its prototype-poisoning protection).
 */
export function acceptEmptyJsonBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    parseJson(request, text, done);
  });
}

/** No body, an empty one, `null` or `{}`: nothing a caller could have meant as input. */
export function isEmptyBody(body: unknown) {
  if (body === undefined || body === null || body === '') return true;
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}
