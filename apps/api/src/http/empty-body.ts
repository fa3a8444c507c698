import { errorCodes, type FastifyBodyParser, type FastifyInstance } from 'fastify';

/** Fastify's JSON parser (and its prototype-poisoning protection), except that an empty body is no body. */
export function jsonOrNothing(app: FastifyInstance): FastifyBodyParser<string> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    parseJson(request, text, done);
  };
}

/**
 * Many clients name a content type on a request with nothing in it: a directory's `DELETE` with
 * `Content-Type: application/scim+json`, the spec's create call with `application/json`. Fastify hands such a
 * request to that type's parser, which refused it as empty JSON (400) or as a type it does not know (415).
 * For the whole app, once: an empty JSON body is no body, and so is an empty body of any type the app has no
 * parser for; a type it has none for that carries something is still refused with 415, as Fastify does,
 * without reading it when its length says so. A route that needs a body refuses its absence in its own words.
 * (SCIM's own type parses with `jsonOrNothing` too.)
 */
export function acceptEmptyBodies(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonOrNothing(app));
  app.addContentTypeParser('*', (request, payload, done) => {
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      done(error, undefined);
    };
    const length = request.headers['content-length'];
    if (length !== undefined && length !== '0') return settle(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE());
    // Chunked, or no length at all: empty only if it ends before a byte arrives.
    payload.once('data', () => settle(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE()));
    payload.once('end', () => settle(null));
    payload.once('error', (error) => settle(error));
  });
}

/** No body, an empty one, `null` or `{}`: nothing a caller could have meant as input. */
export function isEmptyBody(body: unknown) {
  if (body === undefined || body === null || body === '') return true;
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}
