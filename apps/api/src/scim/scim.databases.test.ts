import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../app.ts';
import { buildDomain, type Domain } from '../domain.ts';
import { createLogger } from '../observability/logging.ts';
import { adminPasskeys } from '../db/schema.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { PATCH_OP, SCIM_CONTENT_TYPE, SCIM_ERROR, USER_SCHEMA } from './scim-schemas.ts';

const TOKEN = 'scim-test-token-of-at-least-32-characters';
const PREVIOUS = 'scim-previous-token-of-at-least-32-chars';
const auth = { authorization: `Bearer ${TOKEN}` };
/**
 * Every SCIM create and delete is a call to the emulator, and every test empties PostgreSQL first: on a busy
 * two-core machine either can take seconds, which the defaults (3 s, 2 s) would report as an outage.
 */
const BUSY_MACHINE = { IDENTITY_TIMEOUT_MS: '15000', DATABASE_CONNECT_TIMEOUT_MS: '10000' };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What Microsoft Entra ID sends to create a user (its provisioning docs), with an address as userName. */
const entraCreate = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
  userName,
  active: true,
  emails: [{ primary: true, type: 'work', value: userName }],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
});

/** What Okta sends to create a user (its SCIM 2.0 guide). */
const oktaCreate = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Test', familyName: 'User' },
  emails: [{ primary: true, value: userName, type: 'work' }],
  displayName: 'Test User',
  locale: 'en-US',
  externalId: '00ujl29u0le5T6Aj10h7',
  groups: [],
  password: '1mz050nq',
  active: true,
});

const patch = (...Operations: object[]) => ({ schemas: [PATCH_OP], Operations });

function scim(app: FastifyInstance) {
  return async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers = {}) => {
    const response = await app.inject({
      method,
      url: `/scim/v2${url}`,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': SCIM_CONTENT_TYPE }), ...headers },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (response.body ? response.json() : undefined) as Json,
    };
  };
}

describe('SCIM 2.0 at /scim/v2', () => {
  const t = useTestApp({
    env: {
      ...BUSY_MACHINE,
      SCIM_TOKEN: TOKEN,
      SCIM_TOKEN_PREVIOUS: PREVIOUS,
      SCIM_ASSIGNABLE_ROLES: 'admin,finance',
      TOKEN_RECHECK_SECONDS: '60',
    },
  });
  const call = (...args: Parameters<ReturnType<typeof scim>>) => scim(t.app)(...args);
  const auditOf = async (action: string) =>
    (await t.app.domain.audit.list({ limit: 50, offset: 0 })).filter((entry) => entry.action === action);
  const idOf = async (email: string) =>
    (await call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`)).body.Resources[0].id as string;

  it('describes itself: configuration, resource types and schemas, as application/scim+json', async () => {
    const config = await call('GET', '/ServiceProviderConfig');
    assert.equal(config.status, 200);
    assert.equal(config.headers['content-type'], SCIM_CONTENT_TYPE);
    assert.equal(config.body.patch.supported, true);
    assert.equal(config.body.bulk.supported, false);
    assert.equal(config.body.etag.supported, true);
    assert.equal(config.body.authenticationSchemes[0].type, 'oauthbearertoken');
    const types = await call('GET', '/ResourceTypes');
    assert.deepEqual(
      types.body.Resources.map((type: Json) => type.endpoint),
      ['/Users', '/Groups'],
    );
    assert.equal((await call('GET', '/ResourceTypes/User')).body.schema, USER_SCHEMA);
    const schemas = await call('GET', '/Schemas');
    assert.equal(schemas.body.totalResults, 2);
    const user = await call('GET', `/Schemas/${USER_SCHEMA}`);
    assert.deepEqual(
      user.body.attributes.map((attribute: Json) => attribute.name),
      ['userName', 'externalId', 'active', 'emails', 'groups'],
    );
    assert.equal((await call('GET', '/Schemas/urn:nothing')).status, 404);
  });

  it('refuses a call without the token, or with another, in SCIM error form; accepts the previous token', async () => {
    for (const headers of [
      { authorization: '' },
      { authorization: 'Bearer not-the-token' },
      { authorization: 'Basic abc' },
    ]) {
      const response = await call('GET', '/Users', undefined, headers);
      assert.equal(response.status, 401);
      assert.equal(response.headers['www-authenticate'], 'Bearer realm="scim"');
      assert.deepEqual(response.body.schemas, [SCIM_ERROR]);
      assert.equal(response.body.status, '401');
    }
    const previous = await call('GET', '/Users', undefined, { authorization: `Bearer ${PREVIOUS}` });
    assert.equal(previous.status, 200);
    // The SCIM token is no portal token: the admin API does not take it.
    const api = await t.app.inject({ url: '/api/users', headers: auth });
    assert.equal(api.statusCode, 401);
  });

  it("creates a user from Entra ID's body: a row kept by the directory, its sign-in account, audited as scim", async () => {
    const created = await call('POST', '/Users', entraCreate('Alice@Example.com'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.headers['content-type'], SCIM_CONTENT_TYPE);
    const user = created.body;
    assert.equal(user.userName, 'alice@example.com');
    assert.equal(user.externalId, '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef');
    assert.equal(user.active, true);
    assert.deepEqual(user.emails, [{ value: 'alice@example.com', type: 'work', primary: true }]);
    assert.match(user.id, /^[\da-f-]{36}$/);
    assert.equal(user.meta.location, `http://localhost:80/scim/v2/Users/${user.id}`);
    assert.equal(created.headers.location, user.meta.location);
    assert.equal(created.headers.etag, user.meta.version);
    const row = await t.app.domain.users.findByEmail('alice@example.com');
    assert.equal(row?.managedBy, 'scim');
    assert.ok(row?.firebaseUid, 'a sign-in account was made');
    assert.ok(await t.identity.findUserByEmail('alice@example.com'));
    const [added] = await auditOf('users.add');
    assert.deepEqual([added?.actor, added?.outcome], ['scim', 'ok']);
    // The same address again: SCIM's uniqueness conflict.
    const again = await call('POST', '/Users', oktaCreate('alice@example.com'));
    assert.equal(again.status, 409);
    assert.equal(again.body.scimType, 'uniqueness');
    // The admin screen shows the row as the directory's.
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const list = await t.app.inject({ url: '/api/users', headers: t.bearer(admin.idToken) });
    const listed = (list.json() as Json[]).find((each) => each.email === 'alice@example.com');
    assert.deepEqual([listed?.managedBy, listed?.suspended], ['directory', false]);
  });

  it("creates a user from Okta's body, and refuses a userName that is not an address or is missing", async () => {
    const created = await call('POST', '/Users', oktaCreate('test.user@okta.local'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.externalId, '00ujl29u0le5T6Aj10h7');
    const notAddress = await call('POST', '/Users', { ...oktaCreate('x'), userName: 'Test_User_ab6490ee' });
    assert.equal(notAddress.status, 400);
    assert.equal(notAddress.body.scimType, 'invalidValue');
    const missing = await call('POST', '/Users', { schemas: [USER_SCHEMA] });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.scimType, 'invalidSyntax');
    const broken = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { ...auth, 'content-type': SCIM_CONTENT_TYPE },
      payload: '{"userName": ',
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().scimType, 'invalidSyntax');
  });

  it('finds users by userName (any case), externalId and id, and pages with startIndex and count', async () => {
    for (let i = 1; i <= 5; i++)
      assert.equal((await call('POST', '/Users', oktaCreate(`u${i}@example.com`))).status, 201);
    const byName = await call('GET', `/Users?filter=${encodeURIComponent('userName eq "U3@Example.com"')}`);
    assert.equal(byName.body.totalResults, 1);
    assert.equal(byName.body.Resources[0].userName, 'u3@example.com');
    assert.deepEqual(byName.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    const none = await call('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@example.com"')}`);
    assert.deepEqual([none.status, none.body.totalResults, none.body.Resources], [200, 0, []]);
    const byExternal = await call('GET', `/Users?filter=${encodeURIComponent('externalId eq "00ujl29u0le5T6Aj10h7"')}`);
    assert.equal(byExternal.body.totalResults, 5);
    const id = byName.body.Resources[0].id as string;
    const byId = await call('GET', `/Users?filter=${encodeURIComponent(`id eq "${id}" and active eq true`)}`);
    assert.equal(byId.body.Resources[0].userName, 'u3@example.com');
    const page = await call('GET', '/Users?startIndex=2&count=2');
    assert.deepEqual([page.body.totalResults, page.body.startIndex, page.body.itemsPerPage], [5, 2, 2]);
    assert.deepEqual(
      page.body.Resources.map((user: Json) => user.userName),
      ['u2@example.com', 'u3@example.com'],
    );
    const countOnly = await call('GET', '/Users?count=0');
    assert.deepEqual([countOnly.body.totalResults, countOnly.body.Resources.length], [5, 0]);
    const some = await call(
      'GET',
      `/Users?filter=${encodeURIComponent('userName sw "u" and not (userName ew "1@example.com")')}&attributes=userName`,
    );
    assert.equal(some.body.totalResults, 4);
    assert.deepEqual(Object.keys(some.body.Resources[0]).sort(), ['id', 'meta', 'schemas', 'userName']);
    const bad = await call('GET', `/Users?filter=${encodeURIComponent('userName eq')}`);
    assert.deepEqual([bad.status, bad.body.scimType], [400, 'invalidFilter']);
    const unknown = await call('GET', `/Users?filter=${encodeURIComponent('title eq "x"')}`);
    assert.deepEqual([unknown.status, unknown.body.scimType], [400, 'invalidFilter']);
    assert.equal((await call('GET', '/Users/00000000-0000-0000-0000-000000000000')).status, 404);
    assert.equal((await call('GET', '/Users/not-an-id')).status, 404);
  });

  it("deactivates with Entra ID's PATCH forms: refused at once, sessions ended, audited as scim; reactivates", async () => {
    const user = await t.createAccount('bob@example.com');
    await t.createAccount('admin@example.com', { admin: true });
    assert.equal(
      (await t.app.inject({ url: '/api/users/bob@example.com', headers: t.bearer(user.idToken) })).statusCode,
      200,
    );
    // Entra ID matches a person who is already listed by userName, then patches them: refused until a portal
    // administrator adopts the row into the directory (the CLI's users adopt), which is audited.
    const id = await idOf('bob@example.com');
    const notKept = await call('PATCH', `/Users/${id}`, patch({ op: 'Replace', path: 'active', value: false }));
    assert.equal(notKept.status, 403);
    assert.deepEqual(notKept.body.schemas, [SCIM_ERROR]);
    assert.match(notKept.body.detail, /bob@example.com was added on the portal.*users adopt bob@example.com/);
    assert.equal((await call('PUT', `/Users/${id}`, oktaCreate('bob@example.com'))).status, 403);
    assert.equal((await call('DELETE', `/Users/${id}`)).status, 403);
    assert.deepEqual(
      await t.app.domain.users.findByEmail('bob@example.com').then((row) => [row?.managedBy, row?.suspended]),
      [null, false],
      'nothing changed',
    );
    assert.equal(await t.app.domain.provisioning.adopt({ email: 'bob@example.com', actor: 'cli:Jane' }), 'adopted');
    const [adopted] = await auditOf('users.directory-update');
    assert.deepEqual([adopted?.actor, adopted?.detail], ['cli:Jane', 'now kept by the company directory']);
    assert.equal(await t.app.domain.provisioning.adopt({ email: 'bob@example.com', actor: 'cli:Jane' }), 'already');
    const update = await call(
      'PATCH',
      `/Users/${id}`,
      patch(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'bob@example.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'externalId', value: 'entra-object-id-1' },
      ),
    );
    assert.equal(update.status, 200, JSON.stringify(update.body));
    assert.equal(update.body.externalId, 'entra-object-id-1');
    assert.equal((await t.app.domain.users.findByEmail('bob@example.com'))?.managedBy, 'scim');
    // Entra ID's older form: "Replace" and the string "False".
    const off = await call('PATCH', `/Users/${id}`, patch({ op: 'Replace', path: 'active', value: 'False' }));
    assert.equal(off.status, 200);
    assert.equal(off.body.active, false);
    const refused = await t.app.inject({ url: '/api/users/bob@example.com', headers: t.bearer(user.idToken) });
    assert.equal(refused.statusCode, 401, 'refused on the next call, with a token the server had cached');
    const [ended] = await auditOf('sessions.end');
    assert.deepEqual([ended?.actor, ended?.target, ended?.outcome], ['scim', 'bob@example.com', 'ok']);
    const [changed] = await auditOf('users.directory-update');
    assert.deepEqual([changed?.actor, changed?.detail], ['scim', 'deactivated']);
    // The login screen's lookup says the address is not (any longer) allowed.
    assert.equal((await t.app.inject({ url: '/api/users/bob@example.com' })).statusCode, 404);
    // Reactivated with the newer form: a value object without a path.
    const on = await call('PATCH', `/Users/${id}`, patch({ op: 'replace', value: { active: true } }));
    assert.equal(on.body.active, true);
    assert.equal((await t.app.domain.users.findByEmail('bob@example.com'))?.suspended, false);
  });

  it("deactivates with Okta's PATCH (a value object without a path) and replaces with PUT; a rename is refused", async () => {
    const created = (await call('POST', '/Users', oktaCreate('carol@example.com'))).body;
    const off = await call('PATCH', `/Users/${created.id}`, patch({ op: 'replace', value: { active: false } }));
    assert.deepEqual([off.status, off.body.active], [200, false]);
    const put = await call('PUT', `/Users/${created.id}`, {
      ...oktaCreate('carol@example.com'),
      externalId: 'okta-2',
      active: true,
    });
    assert.deepEqual([put.status, put.body.externalId, put.body.active], [200, 'okta-2', true]);
    const renamed = await call('PUT', `/Users/${created.id}`, { ...oktaCreate('other@example.com') });
    assert.deepEqual([renamed.status, renamed.body.scimType], [400, 'mutability']);
    const patchRename = await call(
      'PATCH',
      `/Users/${created.id}`,
      patch({ op: 'replace', path: 'userName', value: 'x@example.com' }),
    );
    assert.deepEqual([patchRename.status, patchRename.body.scimType], [400, 'mutability']);
    const badOp = await call('PATCH', `/Users/${created.id}`, patch({ op: 'move', path: 'active', value: true }));
    assert.deepEqual([badOp.status, badOp.body.scimType], [400, 'invalidSyntax']);
    const badPath = await call(
      'PATCH',
      `/Users/${created.id}`,
      patch({ op: 'replace', path: 'favouriteColour', value: 'x' }),
    );
    assert.deepEqual([badPath.status, badPath.body.scimType], [400, 'invalidPath']);
    const removeId = await call('PATCH', `/Users/${created.id}`, patch({ op: 'remove', path: 'externalId' }));
    assert.equal(removeId.body.externalId, undefined);
  });

  it('answers ETags: 304 for If-None-Match on the current version, 412 for a write with an old If-Match', async () => {
    const created = await call('POST', '/Users', oktaCreate('dave@example.com'));
    const etag = created.headers.etag as string;
    assert.match(etag, /^W\/".+"$/);
    const same = await call('GET', `/Users/${created.body.id}`, undefined, { 'if-none-match': etag });
    assert.equal(same.status, 304);
    const changed = await call(
      'PATCH',
      `/Users/${created.body.id}`,
      patch({ op: 'replace', path: 'externalId', value: 'new' }),
      { 'if-match': etag },
    );
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.etag, etag);
    const stale = await call(
      'PATCH',
      `/Users/${created.body.id}`,
      patch({ op: 'replace', path: 'active', value: false }),
      { 'if-match': etag },
    );
    assert.equal(stale.status, 412);
    assert.equal((await call('DELETE', `/Users/${created.body.id}`, undefined, { 'if-match': etag })).status, 412);
  });

  it('deletes a user: the row and its sign-in account go, audited as scim', async () => {
    const created = (await call('POST', '/Users', entraCreate('erin@example.com'))).body;
    const deleted = await call('DELETE', `/Users/${created.id}`);
    assert.equal(deleted.status, 204);
    assert.equal(await t.app.domain.users.findByEmail('erin@example.com'), undefined);
    assert.equal(await t.identity.findUserByEmail('erin@example.com'), undefined);
    assert.equal((await call('GET', `/Users/${created.id}`)).status, 404);
    assert.equal((await call('DELETE', `/Users/${created.id}`)).status, 404);
    const [removed] = await auditOf('users.remove');
    assert.deepEqual([removed?.actor, removed?.outcome], ['scim', 'ok']);
  });

  it('gives and takes the admin role through Groups (Entra ID and Okta forms), under the last-admin rule', async () => {
    await t.createAccount('admin@example.com', { admin: true });
    const frank = (await call('POST', '/Users', entraCreate('frank@example.com'))).body;
    const groups = await call(
      'GET',
      `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "admin"')}`,
    );
    assert.equal(groups.body.totalResults, 1);
    assert.equal(groups.body.Resources[0].id, 'admin');
    assert.equal(groups.body.Resources[0].members, undefined);
    // Entra ID's add, with its extra "name" and a null $ref.
    const added = await call(
      'PATCH',
      '/Groups/admin',
      patch({ name: 'addMember', op: 'Add', path: 'members', value: [{ $ref: null, value: frank.id }] }),
    );
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.ok(added.body.members.some((member: Json) => member.value === frank.id));
    assert.equal((await t.app.domain.users.findByEmail('frank@example.com'))?.admin, true);
    assert.deepEqual(
      (await call('GET', `/Users/${frank.id}`)).body.groups.map((group: Json) => group.value),
      ['admin'],
    );
    const member = await call('GET', `/Groups?filter=${encodeURIComponent(`members[value eq "${frank.id}"]`)}`);
    assert.equal(member.body.totalResults, 1);
    // Okta's rename-in-place is accepted unchanged; its removal by filter takes the role.
    const okta = await call(
      'PATCH',
      '/Groups/admin',
      patch({ op: 'replace', value: { id: 'admin', displayName: 'admin' } }),
    );
    assert.equal(okta.status, 200);
    const removed = await call(
      'PATCH',
      '/Groups/admin',
      patch({ op: 'remove', path: `members[value eq "${frank.id}"]` }),
    );
    assert.equal(removed.status, 200);
    assert.equal((await t.app.domain.users.findByEmail('frank@example.com'))?.admin, false);
    const [roleAudit] = await auditOf('users.remove-admin');
    assert.equal(roleAudit?.actor, 'scim');
    // The groups are the portal's roles: not made, renamed or deleted.
    assert.equal(
      (
        await call('POST', '/Groups', {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
          displayName: 'admin',
        })
      ).body.scimType,
      'uniqueness',
    );
    assert.equal((await call('POST', '/Groups', { displayName: 'Sales' })).status, 400);
    assert.equal(
      (await call('PATCH', '/Groups/admin', patch({ op: 'replace', path: 'displayName', value: 'boss' }))).body
        .scimType,
      'mutability',
    );
    assert.equal((await call('DELETE', '/Groups/admin')).status, 400);
    assert.equal((await call('GET', '/Groups/sales')).status, 404);
    // The group's members, as the directory sees them, are the people it keeps: emptying it leaves the
    // portal's own administrator as they are, and adding them is refused.
    const admin = await t.app.domain.users.findByEmail('admin@example.com');
    const listed = await call('GET', '/Groups/admin');
    assert.ok(!listed.body.members.some((each: Json) => each.value === admin?.scimId));
    const empty = await call('PUT', '/Groups/admin', { displayName: 'admin', members: [] });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.equal((await t.app.domain.users.findByEmail('admin@example.com'))?.admin, true);
    const foreign = await call(
      'PATCH',
      '/Groups/finance',
      patch({ op: 'add', path: 'members', value: [{ value: admin?.scimId }] }),
    );
    assert.equal(foreign.status, 403);
    assert.match(foreign.body.detail, /admin@example.com was added on the portal/);
    assert.equal((await t.app.domain.users.findByEmail('admin@example.com'))?.finance, false);
  });

  it('keeps the last administrator, and the last administrator with a passkey, whatever the directory asks', async () => {
    await t.createAccount('ivy@example.com', { admin: true });
    await t.app.domain.provisioning.adopt({ email: 'ivy@example.com', actor: 'cli:Jane' });
    const ivy = await idOf('ivy@example.com');
    // The only administrator: neither demoted nor deactivated nor removed.
    const empty = await call('PUT', '/Groups/admin', { displayName: 'admin', members: [] });
    assert.equal(empty.status, 409);
    assert.deepEqual(empty.body.schemas, [SCIM_ERROR]);
    // A second administrator, the directory's, without a passkey: Ivy is still the only one who has one.
    const jack = (await call('POST', '/Users', entraCreate('jack@example.com'))).body;
    assert.equal(
      (await call('PATCH', '/Groups/admin', patch({ op: 'add', path: 'members', value: [{ value: jack.id }] }))).status,
      200,
    );
    await t.database.db.insert(adminPasskeys).values({
      credentialId: 'ivy-key',
      email: 'ivy@example.com',
      publicKey: 'pk',
      deviceType: 'singleDevice',
      backedUp: false,
    });
    const attempts = [
      await call('PATCH', '/Groups/admin', patch({ op: 'remove', path: `members[value eq "${ivy}"]` })),
      await call('PATCH', `/Users/${ivy}`, patch({ op: 'replace', path: 'active', value: false })),
      await call('DELETE', `/Users/${ivy}`),
    ];
    for (const refused of attempts) {
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.deepEqual(refused.body.schemas, [SCIM_ERROR]);
      assert.equal(refused.body.status, '409');
      assert.match(refused.body.detail, /ivy@example.com: they are the last administrator with a passkey/);
    }
    const row = await t.app.domain.users.findByEmail('ivy@example.com');
    assert.deepEqual([row?.admin, row?.suspended], [true, false], 'nothing changed');
    assert.ok((await auditOf('users.remove-admin')).some((entry) => entry.outcome === 'refused'));
    // Once Jack has a passkey too, Ivy may go.
    await t.database.db.insert(adminPasskeys).values({
      credentialId: 'jack-key',
      email: 'jack@example.com',
      publicKey: 'pk',
      deviceType: 'singleDevice',
      backedUp: false,
    });
    const removed = await call('PATCH', '/Groups/admin', patch({ op: 'remove', path: `members[value eq "${ivy}"]` }));
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal((await t.app.domain.users.findByEmail('ivy@example.com'))?.admin, false);
  });

  it("refuses an admin's local change to a user the directory keeps, saying where to change it", async () => {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    await call('POST', '/Users', oktaCreate('gina@example.com'));
    const headers = { ...t.bearer(admin.idToken), 'content-type': 'application/json' };
    const role = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/gina@example.com',
      headers,
      payload: { admin: true },
    });
    assert.equal(role.statusCode, 409);
    assert.equal(role.json().code, 'managed-by-directory');
    assert.match(role.json().message, /kept by your company directory.*Change or remove them in the directory/);
    const removal = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/gina@example.com',
      headers: t.bearer(admin.idToken),
    });
    assert.equal(removal.json().code, 'managed-by-directory');
    const finance = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/gina@example.com',
      headers,
      payload: { finance: true },
    });
    assert.equal(finance.json().code, 'managed-by-directory');
    const row = await t.app.domain.users.findByEmail('gina@example.com');
    assert.deepEqual([row?.admin, row?.finance, row?.managedBy], [false, false, 'scim']);
  });

  it('gives and takes the finance role through its Group, audited with the directory as the actor', async () => {
    const hana = (await call('POST', '/Users', oktaCreate('hana@example.com'))).body;
    const listed = await call('GET', '/Groups?excludedAttributes=members');
    assert.deepEqual(
      listed.body.Resources.map((group: Json) => group.id),
      ['admin', 'finance'],
    );
    const added = await call(
      'PATCH',
      '/Groups/finance',
      patch({ op: 'add', path: 'members', value: [{ value: hana.id }] }),
    );
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.equal((await t.app.domain.users.findByEmail('hana@example.com'))?.finance, true);
    assert.deepEqual(
      (await call('GET', `/Users/${hana.id}`)).body.groups.map((group: Json) => group.value),
      ['finance'],
    );
    const removed = await call(
      'PATCH',
      '/Groups/finance',
      patch({ op: 'remove', path: `members[value eq "${hana.id}"]` }),
    );
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal((await t.app.domain.users.findByEmail('hana@example.com'))?.finance, false);
    const [grant] = await auditOf('users.grant-finance');
    assert.deepEqual([grant?.actor, grant?.outcome], ['scim', 'ok']);
  });

  it('answers an unknown SCIM path with a SCIM 404', async () => {
    const response = await call('GET', '/Nothing');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body.schemas, [SCIM_ERROR]);
  });
});

describe('SCIM without SCIM_TOKEN', () => {
  const t = useTestApp();
  it('is not served at all: every path answers 404', async () => {
    for (const url of ['/scim/v2/Users', '/scim/v2/ServiceProviderConfig']) {
      const response = await t.app.inject({ url, headers: auth });
      assert.equal(response.statusCode, 404, url);
    }
    assert.equal(
      (await t.app.inject({ method: 'POST', url: '/scim/v2/Users', headers: auth, payload: {} })).statusCode,
      404,
    );
  });
});

describe("SCIM's own allowance", () => {
  const t = useTestApp({
    env: {
      ...BUSY_MACHINE,
      SCIM_TOKEN: TOKEN,
      RATE_LIMIT_SCIM_PER_MINUTE: '3',
      RATE_LIMIT_LOOKUPS_PER_MINUTE: '2',
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '2',
    },
  });
  it('stops a runaway directory with 429 and Retry-After, and spends nothing of the anonymous budgets', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await scim(t.app)('GET', '/ServiceProviderConfig')).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const refused = await scim(t.app)('GET', '/Users');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.deepEqual(refused.body.schemas, [SCIM_ERROR]);
    // Someone not signed in still has their whole allowance and the whole budget.
    assert.equal(t.app.domain.rateLimits.anonymousBudget.roomNow(), undefined);
    const lookups = [];
    for (let i = 0; i < 2; i++) lookups.push((await t.app.inject({ url: '/api/users/a@example.com' })).statusCode);
    assert.deepEqual(lookups, [404, 404]);
  });
});

describe('a deprovisioning on two instances of one database', () => {
  const t = useTestApp({ env: { ...BUSY_MACHINE, SCIM_TOKEN: TOKEN, TOKEN_RECHECK_SECONDS: '60' } });
  let second: { app: FastifyInstance; domain: Domain };
  before(async () => {
    // Another instance: its own domain (allowlist cache, token cache, change listener) on the same database.
    const domain = buildDomain(
      {
        config: t.config,
        database: t.database,
        identity: t.identity,
        blobStore: t.blobStore,
        errorReporter: t.errorReporter,
      },
      { log: createLogger({ logLevel: 'silent' }) },
    );
    await domain.start();
    const app = await createApp(domain, createLogger({ logLevel: 'silent' }));
    await app.ready();
    second = { app, domain };
  });
  after(async () => {
    await second.app.close();
    await second.domain.close();
  });

  for (const how of ['active false', 'delete'] as const) {
    it(`refuses the person on the other instance within 1 s of a ${how} on this one`, async () => {
      const user = await t.createAccount('hank@example.com');
      await t.app.domain.provisioning.adopt({ email: 'hank@example.com', actor: 'cli:test' });
      const lookup = () => second.app.inject({ url: '/api/users/hank@example.com', headers: t.bearer(user.idToken) });
      // The other instance has the row and the token in its caches, and hears change notices.
      for (let waited = 0; !second.domain.allowlist.isLive(); waited += 50) {
        assert.ok(waited < 10_000, 'the second instance hears change notices');
        await sleep(50);
      }
      assert.equal((await lookup()).statusCode, 200);
      const id = (await scim(t.app)('GET', `/Users?filter=${encodeURIComponent('userName eq "hank@example.com"')}`))
        .body.Resources[0].id;
      const started = performance.now();
      const change =
        how === 'delete'
          ? await scim(t.app)('DELETE', `/Users/${id}`)
          : await scim(t.app)('PATCH', `/Users/${id}`, patch({ op: 'Replace', path: 'active', value: false }));
      assert.ok(change.status === 200 || change.status === 204, JSON.stringify(change.body));
      let status = 200;
      while (status === 200 && performance.now() - started < 1000) {
        status = (await lookup()).statusCode;
        if (status === 200) await sleep(20);
      }
      const elapsed = performance.now() - started;
      assert.equal(status, 401, `still let in ${Math.round(elapsed)} ms after the ${how}`);
      t.app.log.info({ elapsedMs: Math.round(elapsed) }, 'refused on the other instance');
      process.stdout.write(
        `# ${how}: refused on the second instance ${Math.round(elapsed)} ms after the SCIM call began\n`,
      );
    });
  }
});
