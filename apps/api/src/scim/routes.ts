import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { asUnavailable } from '../dependency-unavailable.ts';
import { DomainError } from '../domain-error.ts';
import { jsonOrNothing } from '../http/empty-body.ts';
import type { UserRow } from '../users/repository.ts';
import { scimAuthentication } from './authentication.ts';
import { parsePatchBody } from './patch.ts';
import type { Provisioning } from './provisioning.ts';
import { project, toScimGroup, toScimUser } from './resources.ts';
import type { Role } from './roles.ts';
import { ScimError, sendScimError, toScimError } from './scim-error.ts';
import {
  DEFAULT_COUNT,
  LIST_RESPONSE,
  MAX_RESULTS,
  resourceTypes,
  SCIM_CONTENT_TYPE,
  schemas,
  serviceProviderConfig,
} from './scim-schemas.ts';

export const SCIM_PREFIX = '/scim/v2';

/** The service provider's absolute address as the caller reached it (behind TRUST_PROXY, the proxy's). */
const baseOf = (request: FastifyRequest) => `${request.protocol}://${request.host}${SCIM_PREFIX}`;

function send(reply: FastifyReply, status: number, body: unknown) {
  return reply
    .code(status)
    .header('content-type', SCIM_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send(Buffer.from(JSON.stringify(body)));
}

/** A single resource, with its ETag; a GET whose If-None-Match names the current version is answered 304. */
function sendResource(request: FastifyRequest, reply: FastifyReply, status: number, resource: Record<string, unknown>) {
  const version = (resource.meta as { version?: string } | undefined)?.version;
  if (version) reply.header('etag', version);
  if (request.method === 'GET' && version && request.headers['if-none-match'] === version)
    return reply.code(304).send();
  return send(reply, status, resource);
}

/** A write with If-Match goes ahead only on the version the caller read (RFC 7644 §3.14). */
function requireVersion(request: FastifyRequest, current: { meta: { version: string } }) {
  const expected = request.headers['if-match'];
  if (expected && expected !== '*' && expected !== current.meta.version)
    throw new ScimError(412, undefined, 'The resource changed since it was read (If-Match): read it again.');
}

function listResponse(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [LIST_RESPONSE],
    totalResults: total,
    itemsPerPage: resources.length,
    startIndex,
    Resources: resources,
  };
}

function integerParam(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number)) throw new ScimError(400, 'invalidValue', `${name} is a whole number.`);
  return number;
}

type Query = Record<string, string | undefined>;

/**
 * The SCIM 2.0 service provider (RFC 7643, RFC 7644) at /scim/v2, registered only when SCIM_TOKEN is set.
 * Its callers are the company directory alone (authentication.ts: its networks, its tokens, wrong tokens
 * throttled per client), with an allowance of its own (RATE_LIMIT_SCIM_PER_MINUTE) that spends nothing of
 * the budgets for people who are not signed in. Answers and errors are SCIM's
 * (application/scim+json, RFC 7644 §3.12 error bodies), not the portal's `{ message, code }`.
 */
export default async function scimRoutes(
  app: FastifyInstance,
  options: { tokens: string[]; from: ((ip: string) => boolean) | undefined; provisioning: Provisioning },
) {
  const { tokens, from, provisioning } = options;
  const domain = app.domain;

  app.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: 'string' }, jsonOrNothing(app));

  app.addHook('onRequest', scimAuthentication({ tokens, from, domain, prefix: SCIM_PREFIX }));

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ScimError) return sendScimError(reply, error);
    const unavailable = asUnavailable(error);
    if (unavailable) {
      request.log.warn({ err: error }, `dependency unavailable: ${unavailable.reason ?? 'unknown'}`);
      reply.header('retry-after', '5');
      return sendScimError(reply, new ScimError(503, undefined, unavailable.message));
    }
    if (error instanceof DomainError) return sendScimError(reply, toScimError(error));
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const scimType = status === 400 ? 'invalidSyntax' : undefined;
      return sendScimError(reply, new ScimError(status, scimType, (error as Error).message));
    }
    request.log.error({ err: error }, 'unhandled error');
    app.reportError(error, request);
    return sendScimError(
      reply,
      new ScimError(500, undefined, 'Something went wrong on our side. Please try again later.'),
    );
  });

  const noSuchEndpoint = (request: FastifyRequest, reply: FastifyReply) =>
    sendScimError(
      reply,
      new ScimError(404, undefined, `No such SCIM endpoint: ${request.method} ${request.url.split('?')[0]}`),
    );
  app.setNotFoundHandler(noSuchEndpoint);
  // The SPA's catch-all page route would otherwise take an unknown GET here, before this context's 404.
  app.get('/*', noSuchEndpoint);

  // Discovery (RFC 7644 §4).
  app.get('/ServiceProviderConfig', (request, reply) => send(reply, 200, serviceProviderConfig(baseOf(request))));
  app.get('/ResourceTypes', (request, reply) => {
    const all = resourceTypes(baseOf(request));
    return send(reply, 200, listResponse(all, all.length, 1));
  });
  app.get<{ Params: { id: string } }>('/ResourceTypes/:id', (request, reply) => {
    const found = resourceTypes(baseOf(request)).find((type) => type.id === request.params.id);
    if (!found) throw new ScimError(404, undefined, `No resource type is called "${request.params.id}".`);
    return send(reply, 200, found);
  });
  app.get('/Schemas', (request, reply) => {
    const all = schemas(baseOf(request));
    return send(reply, 200, listResponse(all, all.length, 1));
  });
  app.get<{ Params: { id: string } }>('/Schemas/:id', (request, reply) => {
    const found = schemas(baseOf(request)).find((schema) => schema.id === request.params.id);
    if (!found) throw new ScimError(404, undefined, `No schema has the id "${request.params.id}".`);
    return send(reply, 200, found);
  });

  // Users: the allowlist.
  const userOut = (request: FastifyRequest, row: UserRow) => toScimUser(row, baseOf(request));

  app.get<{ Querystring: Query }>('/Users', async (request, reply) => {
    const query = request.query;
    const count = Math.min(Math.max(integerParam(query.count, 'count') ?? DEFAULT_COUNT, 0), MAX_RESULTS);
    const sortOrder = query.sortOrder?.toLowerCase();
    const { rows, total, startIndex } = await provisioning.listUsers({
      filter: query.filter,
      startIndex: integerParam(query.startIndex, 'startIndex'),
      count,
      sortBy: query.sortBy,
      sortOrder: sortOrder === 'descending' ? 'descending' : 'ascending',
    });
    const resources = rows.map((row) => project(userOut(request, row), query));
    return send(reply, 200, listResponse(resources, total, startIndex));
  });

  app.post<{ Querystring: Query }>('/Users', async (request, reply) => {
    const row = await provisioning.createUser(request.body);
    const resource = userOut(request, row);
    reply.header('location', resource.meta.location);
    return sendResource(request, reply, 201, project(resource, request.query));
  });

  app.get<{ Params: { id: string }; Querystring: Query }>('/Users/:id', async (request, reply) => {
    const row = await provisioning.getUser(request.params.id);
    return sendResource(request, reply, 200, project(userOut(request, row), request.query));
  });

  app.put<{ Params: { id: string }; Querystring: Query }>('/Users/:id', async (request, reply) => {
    requireVersion(request, userOut(request, await provisioning.getUser(request.params.id)));
    const row = await provisioning.replaceUser(request.params.id, request.body);
    return sendResource(request, reply, 200, project(userOut(request, row), request.query));
  });

  app.patch<{ Params: { id: string }; Querystring: Query }>('/Users/:id', async (request, reply) => {
    const operations = parsePatchBody(request.body);
    requireVersion(request, userOut(request, await provisioning.getUser(request.params.id)));
    const row = await provisioning.patchUser(request.params.id, operations);
    return sendResource(request, reply, 200, project(userOut(request, row), request.query));
  });

  app.delete<{ Params: { id: string } }>('/Users/:id', async (request, reply) => {
    requireVersion(request, userOut(request, await provisioning.getUser(request.params.id)));
    await provisioning.deleteUser(request.params.id);
    return reply.code(204).send();
  });

  // Groups: the roles. Fixed: listed, read and given members; never made, renamed or deleted.
  const wantsMembers = (query: Query) =>
    !(query.excludedAttributes ?? '')
      .toLowerCase()
      .split(',')
      .map((name) => name.trim())
      .includes('members') &&
    (query.attributes === undefined || /(^|,)\s*members\b/i.test(query.attributes));
  const groupOut = async (request: FastifyRequest, role: Role, withMembers: boolean) =>
    toScimGroup(role, withMembers ? await provisioning.membersOf(role) : undefined, baseOf(request));

  app.get<{ Querystring: Query }>('/Groups', async (request, reply) => {
    const query = request.query;
    const roles = await provisioning.listRoles(query.filter);
    const startIndex = Math.max(1, integerParam(query.startIndex, 'startIndex') ?? 1);
    const count = Math.min(Math.max(integerParam(query.count, 'count') ?? DEFAULT_COUNT, 0), MAX_RESULTS);
    const page = roles.slice(startIndex - 1, startIndex - 1 + count);
    const resources = [];
    for (const role of page) resources.push(project(await groupOut(request, role, wantsMembers(query)), query));
    return send(reply, 200, listResponse(resources, roles.length, startIndex));
  });

  app.get<{ Params: { id: string }; Querystring: Query }>('/Groups/:id', async (request, reply) => {
    const role = provisioning.roleById(request.params.id);
    const group = await groupOut(request, role, wantsMembers(request.query));
    return sendResource(request, reply, 200, project(group, request.query));
  });

  app.post('/Groups', async (request) => {
    const body = request.body as { displayName?: unknown } | null;
    const name = typeof body?.displayName === 'string' ? body.displayName : undefined;
    if (!name) throw new ScimError(400, 'invalidSyntax', 'A Group needs a displayName.');
    const role = provisioning.listRoles(`displayName eq ${JSON.stringify(name)}`);
    if ((await role).length > 0)
      throw new ScimError(409, 'uniqueness', `The role "${name}" exists already: link the directory's group to it.`);
    throw new ScimError(
      400,
      'invalidValue',
      `The portal's roles are fixed and there is none called "${name}": name the directory's group after a role (${(await provisioning.listRoles(undefined)).map((each) => each.name).join(', ')}).`,
    );
  });

  app.patch<{ Params: { id: string }; Querystring: Query }>('/Groups/:id', async (request, reply) => {
    const role = provisioning.roleById(request.params.id);
    const operations = parsePatchBody(request.body);
    requireVersion(request, await groupOut(request, role, true));
    await provisioning.patchGroup(role, operations);
    // Entra ID asks for no body (excludedAttributes=members is common); the group is answered as it now is.
    return sendResource(
      request,
      reply,
      200,
      project(await groupOut(request, role, wantsMembers(request.query)), request.query),
    );
  });

  app.put<{ Params: { id: string }; Querystring: Query }>('/Groups/:id', async (request, reply) => {
    const role = provisioning.roleById(request.params.id);
    requireVersion(request, await groupOut(request, role, true));
    await provisioning.replaceGroup(role, request.body);
    return sendResource(request, reply, 200, project(await groupOut(request, role, true), request.query));
  });

  app.delete<{ Params: { id: string } }>('/Groups/:id', async (request) => {
    const role = provisioning.roleById(request.params.id);
    throw new ScimError(
      400,
      'mutability',
      `The portal's roles are fixed: "${role.name}" cannot be deleted. Remove its members instead.`,
    );
  });
}
