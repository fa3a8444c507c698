import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Neither a transfer coding nor a length above zero: the request carries no body, whatever else it says. */
function declaresNoBody(request: FastifyRequest) {
  const { 'transfer-encoding': transferEncoding, 'content-length': length } = request.headers;
  return transferEncoding === undefined && (length === undefined || length === '0');
}

/**
 * Many clients name a content type on a request with nothing in it: a directory's `DELETE` with
 * `Content-Type: application/scim+json`, the spec's create call with `application/json`. Fastify hands such a
 * request to that type's parser, which refuses it as empty JSON (400) or as a type it does not know (415).
 * For the whole app, once: a request that declares no body loses its content type before parsing, so it is
 * the bodyless request every route already answers (a route that needs a body refuses its absence in its own
 * words); and an empty JSON body sent chunked, whose length is not known up front, parses as "no body". Any
 * other JSON still goes through Fastify's parser (and its prototype-poisoning protection).
 */
export function acceptEmptyBodies(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (request.headers['content-type'] !== undefined && declaresNoBody(request)) {
      delete request.raw.headers['content-type'];
    }
  });
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
