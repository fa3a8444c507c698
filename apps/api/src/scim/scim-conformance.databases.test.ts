import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before, describe, it } from 'node:test';
import { useTestApp } from '../../test/helpers/test-app.ts';

/**
 * SCIM 2.0 conformance, over HTTP as a directory calls it, written from RFC 7643 (the schema) and RFC 7644
 * (the protocol), with the request shapes Microsoft Entra ID and Okta document for their provisioning
 * clients. Each test names the section it holds the service provider to. Where the portal departs on purpose
 * (its users are e-mail addresses, its groups are fixed roles), the test says so and checks the refusal.
 */

const TOKEN = 'scim-conformance-token-of-at-least-32-chars';
const SCIM_JSON = 'application/scim+json';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Json | undefined;
}

/** Entra ID's create (its SCIM provisioning guide): enterprise extension, a GUID externalId, a work e-mail. */
const entraUser = (userName: string) => ({
  schemas: [USER, ENTERPRISE],
  externalId: `ext-${userName}`,
  userName,
  active: true,
  emails: [{ primary: true, type: 'work', value: userName }],
  meta: { resourceType: 'User' },
  name: { formatted: 'Given Family', familyName: 'Family', givenName: 'Given' },
  [ENTERPRISE]: { department: 'Logistics' },
  roles: [],
});

/** Okta's create (its SCIM 2.0 guide): a password and locale it sends whatever the app keeps. */
const oktaUser = (userName: string) => ({
  schemas: [USER],
  userName,
  name: { givenName: 'Given', familyName: 'Family' },
  emails: [{ primary: true, value: userName, type: 'work' }],
  displayName: 'Given Family',
  locale: 'en-US',
  externalId: `okta-${userName}`,
  groups: [],
  password: 'an-initial-password-1',
  active: true,
});

const patchOf = (...Operations: object[]) => ({ schemas: [PATCH_OP], Operations });

describe('SCIM 2.0 conformance (RFC 7643, RFC 7644; Entra ID and Okta request shapes), over HTTP', () => {
  // Every created user is a sign-in account at the emulator: on a busy machine that can take seconds.
  const t = useTestApp({
    env: { SCIM_TOKEN: TOKEN, IDENTITY_TIMEOUT_MS: '15000', DATABASE_CONNECT_TIMEOUT_MS: '10000' },
  });
  let origin = '';
  before(async () => {
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  /**
   * One call on the wire. `body`: an object (sent as JSON), a string (sent as is), or absent. Headers are
   * sent exactly as given: no Content-Length is added to a request without a body unless the test says so.
   */
  function call(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
  ): Promise<Answer> {
    const token = options.token === undefined ? TOKEN : options.token;
    const payload =
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    const headers: Record<string, string> = {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(payload === undefined
        ? {}
        : { 'content-type': SCIM_JSON, 'content-length': String(Buffer.byteLength(payload)) }),
      ...options.headers,
    };
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(`${origin}/scim/v2${path}`, { method, headers }, (incoming) => {
        let text = '';
        incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: text ? JSON.parse(text) : undefined,
          }),
        );
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }

  async function created(body: Json) {
    const answer = await call('POST', '/Users', { body });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body!;
  }

  /** RFC 7644 §3.12: the Error schema, the status as a string, a detail; as application/scim+json. */
  function assertError(answer: Answer, status: number, scimType?: string) {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.match(String(answer.headers['content-type']), /^application\/scim\+json/);
    assert.deepEqual(answer.body?.schemas, [ERROR]);
    assert.equal(answer.body?.status, String(status));
    assert.equal(typeof answer.body?.detail, 'string');
    if (scimType) assert.equal(answer.body?.scimType, scimType);
  }

  describe('discovery (RFC 7644 §4)', () => {
    it('/ServiceProviderConfig says what is supported: PATCH, filter with a maximum, sort, ETags; no bulk', async () => {
      const answer = await call('GET', '/ServiceProviderConfig');
      assert.equal(answer.status, 200);
      assert.match(String(answer.headers['content-type']), /^application\/scim\+json/);
      const config = answer.body!;
      assert.deepEqual(config.schemas, ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig']);
      assert.equal(config.patch.supported, true);
      assert.equal(config.filter.supported, true);
      assert.ok(Number.isInteger(config.filter.maxResults) && config.filter.maxResults > 0);
      assert.equal(config.sort.supported, true);
      assert.equal(config.etag.supported, true);
      assert.equal(config.bulk.supported, false);
      assert.equal(config.changePassword.supported, false);
      assert.ok(config.authenticationSchemes.some((scheme: Json) => scheme.type === 'oauthbearertoken'));
    });

    it('/ResourceTypes lists User and Group with their endpoints and schemas; each can be read by id', async () => {
      const list = await call('GET', '/ResourceTypes');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body!.schemas, [LIST]);
      assert.equal(list.body!.totalResults, list.body!.Resources.length);
      const byEndpoint = new Map(list.body!.Resources.map((type: Json) => [type.endpoint, type]));
      assert.equal((byEndpoint.get('/Users') as Json | undefined)?.schema, USER);
      assert.equal((byEndpoint.get('/Groups') as Json | undefined)?.schema, GROUP);
      for (const type of list.body!.Resources as Json[]) {
        assert.deepEqual(type.schemas, ['urn:ietf:params:scim:schemas:core:2.0:ResourceType']);
        assert.ok(type.id && type.name, JSON.stringify(type));
        const one = await call('GET', `/ResourceTypes/${type.id}`);
        assert.equal(one.status, 200);
        assert.equal(one.body!.endpoint, type.endpoint);
      }
      assertError(await call('GET', '/ResourceTypes/Printer'), 404);
    });

    it('/Schemas describes the User schema, userName unique and required; each schema can be read by its URN', async () => {
      const list = await call('GET', '/Schemas');
      assert.equal(list.status, 200);
      const user = (list.body!.Resources as Json[]).find((schema) => schema.id === USER);
      assert.ok(user, 'the core User schema is described');
      const userName = (user.attributes as Json[]).find((attribute) => attribute.name === 'userName');
      assert.equal(userName?.required, true);
      assert.equal(userName?.uniqueness, 'server');
      for (const schema of list.body!.Resources as Json[]) {
        const one = await call('GET', `/Schemas/${schema.id}`);
        assert.equal(one.status, 200, schema.id);
        assert.equal(one.body!.id, schema.id);
      }
      assertError(await call('GET', '/Schemas/urn:example:not-a-schema'), 404);
    });
  });

  describe('authentication (RFC 7644 §2)', () => {
    it('answers 401 with a Bearer challenge and a SCIM error without the token, or with another', async () => {
      for (const token of [null, 'not-the-configured-token-0123456789abcdef']) {
        const answer = await call('GET', '/Users', { token });
        assertError(answer, 401);
        assert.match(String(answer.headers['www-authenticate']), /^Bearer/);
      }
    });
  });

  describe('Users (RFC 7644 §3.3–3.6)', () => {
    it('creates from Entra ID’s and Okta’s bodies: 201 with Location, ETag, id and the kept attributes', async () => {
      for (const body of [entraUser('entra@example.com'), oktaUser('okta@example.com')]) {
        const answer = await call('POST', '/Users', { body });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        const user = answer.body!;
        assert.deepEqual(user.schemas, [USER]);
        assert.equal(typeof user.id, 'string');
        assert.equal(user.userName, body.userName);
        assert.equal(user.externalId, body.externalId);
        assert.equal(user.active, true);
        assert.equal(user.meta.resourceType, 'User');
        assert.equal(answer.headers.location, user.meta.location);
        assert.ok(user.meta.location.endsWith(`/scim/v2/Users/${user.id}`));
        assert.equal(answer.headers.etag, user.meta.version);
        // Never returned (RFC 7643 §4.1.1: password is writeOnly, returned "never").
        assert.equal(user.password, undefined);
      }
    });

    it('accepts application/json as well as application/scim+json (RFC 7644 §8.1)', async () => {
      const answer = await call('POST', '/Users', {
        body: { schemas: [USER], userName: 'plain-json@example.com' },
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    });

    it('refuses a second user with the same userName, whatever its case: 409 uniqueness (§3.3)', async () => {
      await created({ schemas: [USER], userName: 'once@example.com' });
      assertError(
        await call('POST', '/Users', { body: { schemas: [USER], userName: 'ONCE@example.com' } }),
        409,
        'uniqueness',
      );
    });

    it('refuses a body it cannot read with 400 and says why (§3.12)', async () => {
      assertError(await call('POST', '/Users', { body: { schemas: [USER] } }), 400, 'invalidSyntax');
      assertError(await call('POST', '/Users', { body: '{"userName": ' }), 400, 'invalidSyntax');
      // The portal's users are e-mail addresses: a userName that is none is refused, by design.
      assertError(
        await call('POST', '/Users', { body: { schemas: [USER], userName: 'testuser0042' } }),
        400,
        'invalidValue',
      );
    });

    it('reads one user by id, and answers 404 for an id it does not know (§3.4.1)', async () => {
      const user = await created(entraUser('read@example.com'));
      const answer = await call('GET', `/Users/${user.id}`);
      assert.equal(answer.status, 200);
      assert.equal(answer.body!.userName, 'read@example.com');
      assert.deepEqual(answer.body!.emails, [{ value: 'read@example.com', type: 'work', primary: true }]);
      assertError(await call('GET', '/Users/00000000-0000-4000-8000-000000000000'), 404);
    });
  });

  describe('filters (RFC 7644 §3.4.2.2)', () => {
    const find = async (filter: string) => {
      const answer = await call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      assert.equal(answer.status, 200, `${filter}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(answer.body!.schemas, [LIST]);
      return (answer.body!.Resources ?? []).map((user: Json) => user.userName).sort() as string[];
    };

    it('answers the filters Entra ID and Okta send before a create, and the other operators', async () => {
      await created(entraUser('ann@example.com'));
      await created(oktaUser('ben@example.org'));
      await created({ schemas: [USER], userName: 'cid@example.com', active: false });
      // Entra ID: userName, externalId, its work e-mail as a value path; Okta: userName.
      assert.deepEqual(await find('userName eq "ann@example.com"'), ['ann@example.com']);
      assert.deepEqual(await find('externalId eq "okta-ben@example.org"'), ['ben@example.org']);
      assert.deepEqual(await find('emails[type eq "work"].value eq "ann@example.com"'), ['ann@example.com']);
      // userName is caseExact false (RFC 7643 §4.1.1); operators and attribute names are case-insensitive.
      assert.deepEqual(await find('USERNAME EQ "ANN@EXAMPLE.COM"'), ['ann@example.com']);
      assert.deepEqual(await find('userName sw "b"'), ['ben@example.org']);
      assert.deepEqual(await find('userName ew "example.org"'), ['ben@example.org']);
      assert.deepEqual(await find('userName co "id@"'), ['cid@example.com']);
      assert.deepEqual(await find('userName ne "ann@example.com"'), ['ben@example.org', 'cid@example.com']);
      assert.deepEqual(await find('active eq false'), ['cid@example.com']);
      assert.deepEqual(await find('externalId pr'), ['ann@example.com', 'ben@example.org']);
      assert.deepEqual(await find('userName sw "a" or userName sw "c"'), ['ann@example.com', 'cid@example.com']);
      assert.deepEqual(await find('active eq true and not (userName sw "a")'), ['ben@example.org']);
      assert.deepEqual(await find('userName eq "nobody@example.com"'), []);
      const none = await call('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@example.com"')}`);
      assert.equal(none.body!.totalResults, 0);
    });

    it('refuses a filter it cannot read with 400 invalidFilter', async () => {
      for (const filter of ['userName eq', 'userName xx "a"', '(userName eq "a"', 'userName eq "a" and']) {
        assertError(await call('GET', `/Users?filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter');
      }
    });
  });

  describe('pages, order and attributes (RFC 7644 §3.4.2.3–3.4.2.5)', () => {
    it('pages from a 1-based startIndex with count, and says the total', async () => {
      for (const name of ['p1', 'p2', 'p3', 'p4', 'p5'])
        await created({ schemas: [USER], userName: `${name}@example.com` });
      const page = await call('GET', '/Users?sortBy=userName&startIndex=2&count=2');
      assert.equal(page.status, 200);
      assert.equal(page.body!.totalResults, 5);
      assert.equal(page.body!.startIndex, 2);
      assert.equal(page.body!.itemsPerPage, 2);
      assert.deepEqual(
        page.body!.Resources.map((user: Json) => user.userName),
        ['p2@example.com', 'p3@example.com'],
      );
      // "A value less than 1 SHALL be interpreted as 1"; count=0 asks for the total alone.
      const first = await call('GET', '/Users?sortBy=userName&startIndex=0&count=1');
      assert.equal(first.body!.Resources[0].userName, 'p1@example.com');
      const total = await call('GET', '/Users?count=0');
      assert.equal(total.body!.totalResults, 5);
      assert.equal((total.body!.Resources ?? []).length, 0);
      assertError(await call('GET', '/Users?count=two'), 400);
    });

    it('sorts by userName either way', async () => {
      for (const name of ['b', 'c', 'a']) await created({ schemas: [USER], userName: `${name}@example.com` });
      const names = async (order: string) =>
        (await call('GET', `/Users?sortBy=userName&sortOrder=${order}`)).body!.Resources.map(
          (user: Json) => user.userName,
        );
      assert.deepEqual(await names('ascending'), ['a@example.com', 'b@example.com', 'c@example.com']);
      assert.deepEqual(await names('descending'), ['c@example.com', 'b@example.com', 'a@example.com']);
    });

    it('returns only the attributes asked for, or all but the excluded ones; id and schemas always', async () => {
      const user = await created(entraUser('attrs@example.com'));
      const only = await call('GET', `/Users/${user.id}?attributes=userName`);
      assert.equal(only.body!.userName, 'attrs@example.com');
      assert.equal(only.body!.id, user.id);
      assert.deepEqual(only.body!.schemas, [USER]);
      assert.equal(only.body!.emails, undefined);
      assert.equal(only.body!.active, undefined);
      const without = await call('GET', `/Users/${user.id}?excludedAttributes=emails`);
      assert.equal(without.body!.emails, undefined);
      assert.equal(without.body!.active, true);
      const listed = await call(
        'GET',
        `/Users?attributes=userName&filter=${encodeURIComponent('userName eq "attrs@example.com"')}`,
      );
      const keys = Object.keys(listed.body!.Resources[0]);
      for (const always of ['id', 'schemas', 'userName']) assert.ok(keys.includes(always), keys.join());
      for (const left of ['emails', 'active', 'groups', 'externalId']) assert.ok(!keys.includes(left), keys.join());
    });
  });

  describe('replacing and patching (RFC 7644 §3.5)', () => {
    it('PUT replaces what the portal keeps; a new userName is refused as a rename (mutability)', async () => {
      const user = await created(entraUser('put@example.com'));
      const replaced = await call('PUT', `/Users/${user.id}`, {
        body: { ...entraUser('put@example.com'), externalId: 'ext-new', active: false },
      });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.equal(replaced.body!.active, false);
      assert.equal(replaced.body!.externalId, 'ext-new');
      assertError(
        await call('PUT', `/Users/${user.id}`, { body: entraUser('renamed@example.com') }),
        400,
        'mutability',
      );
    });

    it('takes Entra ID’s PATCH: capitalised ops, booleans as strings, paths for attributes it does not keep', async () => {
      const user = await created(entraUser('entra-patch@example.com'));
      const answer = await call('PATCH', `/Users/${user.id}`, {
        body: patchOf(
          { op: 'Replace', path: 'active', value: 'False' },
          { op: 'Add', path: 'externalId', value: 'ext-replaced' },
          { op: 'Replace', path: 'name.givenName', value: 'New' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'entra-patch@example.com' },
          { op: 'Add', path: `${ENTERPRISE}:department`, value: 'Finance' },
        ),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body!.active, false);
      assert.equal(answer.body!.externalId, 'ext-replaced');
    });

    it('takes Okta’s PATCH: a value object without a path', async () => {
      const user = await created({ ...oktaUser('okta-patch@example.com'), active: false });
      const answer = await call('PATCH', `/Users/${user.id}`, {
        body: patchOf({ op: 'replace', value: { active: true } }),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body!.active, true);
    });

    it('removes an optional attribute by path, and refuses what no PATCH may do', async () => {
      const user = await created(entraUser('remove@example.com'));
      const removed = await call('PATCH', `/Users/${user.id}`, { body: patchOf({ op: 'remove', path: 'externalId' }) });
      assert.equal(removed.status, 200);
      assert.equal(removed.body!.externalId, undefined);
      const path = `/Users/${user.id}`;
      assertError(await call('PATCH', path, { body: patchOf({ op: 'remove' }) }), 400, 'noTarget');
      assertError(
        await call('PATCH', path, { body: patchOf({ op: 'move', path: 'active', value: true }) }),
        400,
        'invalidSyntax',
      );
      assertError(
        await call('PATCH', path, { body: { Operations: [{ op: 'replace', path: 'active', value: true }] } }),
        400,
        'invalidSyntax',
      );
      assertError(await call('PATCH', path, { body: patchOf({ op: 'replace', path: 'active', value: 'maybe' }) }), 400);
      assertError(
        await call('PATCH', path, { body: patchOf({ op: 'replace', path: 'nickName2', value: 'x' }) }),
        400,
        'invalidPath',
      );
      assertError(
        await call('PATCH', '/Users/00000000-0000-4000-8000-000000000000', {
          body: patchOf({ op: 'replace', path: 'active', value: true }),
        }),
        404,
      );
    });
  });

  describe('versions (RFC 7644 §3.14, RFC 7232)', () => {
    it('tags each version; a GET of the same version is 304, a write on an older one 412', async () => {
      const user = await created(entraUser('etag@example.com'));
      const read = await call('GET', `/Users/${user.id}`);
      const version = read.headers.etag as string;
      assert.equal(version, read.body!.meta.version);
      assert.match(version, /^W?\/?"/);
      const unchanged = await call('GET', `/Users/${user.id}`, { headers: { 'if-none-match': version } });
      assert.equal(unchanged.status, 304);
      assert.equal(unchanged.body, undefined);

      const changed = await call('PATCH', `/Users/${user.id}`, {
        body: patchOf({ op: 'replace', path: 'active', value: false }),
        headers: { 'if-match': version },
      });
      assert.equal(changed.status, 200);
      assert.notEqual(changed.headers.etag, version);
      assertError(
        await call('PATCH', `/Users/${user.id}`, {
          body: patchOf({ op: 'replace', path: 'active', value: true }),
          headers: { 'if-match': version },
        }),
        412,
      );
      assertError(await call('DELETE', `/Users/${user.id}`, { headers: { 'if-match': version } }), 412);
      const again = await call('GET', `/Users/${user.id}`, { headers: { 'if-none-match': version } });
      assert.equal(again.status, 200, 'a changed resource is sent again');
    });
  });

  describe('deleting (RFC 7644 §3.6)', () => {
    const deletes: [string, { body?: unknown; headers?: Record<string, string> }][] = [
      ['without a body or a content type', {}],
      // As many directory clients send it: the SCIM type named, nothing after it.
      [
        'with the SCIM content type and Content-Length: 0',
        { headers: { 'content-type': SCIM_JSON, 'content-length': '0' } },
      ],
      ['with the SCIM content type and no length at all', { headers: { 'content-type': SCIM_JSON } }],
      [
        'with application/json and an empty chunked body',
        { headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      ],
      ['with a body, which it ignores', { body: { schemas: [USER] } }],
    ];
    for (const [how, options] of deletes) {
      it(`deletes a user ${how}: 204, then 404 for a read and for a second delete`, async () => {
        const user = await created({ schemas: [USER], userName: 'leaver@example.com' });
        const answer = await call('DELETE', `/Users/${user.id}`, options);
        assert.equal(answer.status, 204, JSON.stringify(answer.body));
        assert.equal(answer.body, undefined);
        assertError(await call('GET', `/Users/${user.id}`), 404);
        assertError(await call('DELETE', `/Users/${user.id}`), 404);
      });
    }
  });

  describe('Groups: the portal’s fixed roles (RFC 7643 §4.2)', () => {
    it('lists and reads the roles as Groups, finds one by displayName, leaves members out when asked', async () => {
      const list = await call('GET', '/Groups');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body!.schemas, [LIST]);
      const names = (list.body!.Resources as Json[]).map((group) => group.displayName);
      assert.ok(names.includes('admin'), names.join());
      for (const group of list.body!.Resources as Json[]) {
        assert.deepEqual(group.schemas, [GROUP]);
        const one = await call('GET', `/Groups/${group.id}?excludedAttributes=members`);
        assert.equal(one.status, 200);
        assert.equal(one.body!.displayName, group.displayName);
        assert.equal(one.body!.members, undefined);
        assert.equal(one.headers.etag, one.body!.meta.version);
      }
      const found = await call('GET', `/Groups?filter=${encodeURIComponent('displayName eq "admin"')}`);
      assert.deepEqual(
        found.body!.Resources.map((group: Json) => group.displayName),
        ['admin'],
      );
      assertError(await call('GET', '/Groups/printers'), 404);
    });

    it('refuses to make or delete a group: the roles are fixed (by design)', async () => {
      const made = await call('POST', '/Groups', { body: { schemas: [GROUP], displayName: 'Printers' } });
      assertError(made, 400, 'invalidValue');
      assertError(
        await call('POST', '/Groups', { body: { schemas: [GROUP], displayName: 'admin' } }),
        409,
        'uniqueness',
      );
      assertError(await call('DELETE', '/Groups/admin'), 400, 'mutability');
    });
  });

  describe('errors (RFC 7644 §3.12)', () => {
    it('answers an unknown endpoint or path in SCIM’s error body', async () => {
      assertError(await call('GET', '/Printers'), 404);
      assertError(await call('GET', '/Users/x/y'), 404);
    });
  });
});
