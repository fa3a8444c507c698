import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IdentityProvider } from '../identity/identity-provider.ts';
import { failingIdentity } from '../../test/helpers/failing-identity.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';

const SCIM_TOKEN = 'scim-test-token-for-deactivation-0123456789';

describe('a deactivation, in the users service', () => {
  const revoked: string[] = [];
  const identity = failingIdentity();
  /** The real provider, noting whose sessions it was asked to end. */
  const noting = (real: IdentityProvider): IdentityProvider =>
    new Proxy(identity.wrap(real), {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property !== 'revokeSessions' || typeof value !== 'function') return value;
        return async (uid: string) => {
          revoked.push(uid);
          return (value as IdentityProvider['revokeSessions']).call(target, uid);
        };
      },
    });
  const t = useTestApp({ env: { SCIM_TOKEN, IDENTITY_TIMEOUT_MS: '15000' }, wrapIdentity: noting });

  /** Counts the users repository's reads outside a transaction while `work` runs. */
  async function readsDuring(work: () => Promise<unknown>) {
    const { users } = t.domain;
    const originals = { findByEmail: users.findByEmail, findByScimId: users.findByScimId };
    let reads = 0;
    users.findByEmail = (email) => ((reads += 1), originals.findByEmail(email));
    users.findByScimId = (id) => ((reads += 1), originals.findByScimId(id));
    try {
      await work();
    } finally {
      Object.assign(users, originals);
    }
    return reads;
  }

  it('ends the person’s sessions itself, from the row it read, whoever calls it', async () => {
    revoked.length = 0;
    const person = await t.createAccount('leaver@example.com');
    const reads = await readsDuring(() =>
      t.domain.userAdmin.setDirectoryState({
        email: 'leaver@example.com',
        actor: 'scim',
        state: { externalId: null, suspended: true },
      }),
    );
    assert.deepEqual(revoked, [person.uid], 'their refresh tokens revoked');
    assert.equal(reads, 0, 'the row read once, in the transaction, and not again to end the sessions');
    const ended = (await t.domain.audit.list({ limit: 50, offset: 0 })).find(
      (entry) => entry.action === 'sessions.end' && entry.target === 'leaver@example.com',
    );
    assert.equal(ended?.outcome, 'ok');
    assert.equal(ended?.actor, 'scim');

    // The same state again (a directory repeats itself) ends nothing more.
    await t.domain.userAdmin.setDirectoryState({
      email: 'leaver@example.com',
      actor: 'scim',
      state: { externalId: null, suspended: true },
    });
    assert.equal(revoked.length, 1);
  });

  it('holds when the identity provider cannot end the sessions: the row refuses them all the same', async () => {
    revoked.length = 0;
    const person = await t.createAccount('outage@example.com');
    identity.fail('revokeSessions');
    try {
      const { row } = await t.domain.userAdmin.setDirectoryState({
        email: 'outage@example.com',
        actor: 'scim',
        state: { externalId: null, suspended: true },
      });
      assert.equal(row.suspended, true);
    } finally {
      identity.heal();
    }
    const refused = await t.app.inject({ url: '/api/invoice?parcelCode=ANY1', headers: t.bearer(person.idToken) });
    assert.equal(refused.statusCode, 401);
    const failed = (await t.domain.audit.list({ limit: 50, offset: 0 })).find(
      (entry) => entry.action === 'sessions.end' && entry.target === 'outage@example.com',
    );
    assert.equal(failed?.outcome, 'failed');
  });

  it('is what a SCIM deactivation does: the sessions end once', async () => {
    revoked.length = 0;
    const person = await t.createAccount('directory@example.com');
    // The directory changes only the people it keeps: this one, added on the portal, is adopted first.
    await t.domain.provisioning.adopt({ email: 'directory@example.com', actor: 'cli:test' });
    const auth = { authorization: `Bearer ${SCIM_TOKEN}` };
    const found = await t.app.inject({
      url: `/scim/v2/Users?filter=${encodeURIComponent('userName eq "directory@example.com"')}`,
      headers: auth,
    });
    const id = (found.json() as { Resources: { id: string }[] }).Resources[0]!.id;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/scim/v2/Users/${id}`,
      headers: { ...auth, 'content-type': 'application/scim+json' },
      payload: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual(revoked, [person.uid]);
  });
});
