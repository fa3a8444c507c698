import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSoftwareAuthenticator, enrollPasskey } from '@portal/dev-stack/passkeys';
import { sql } from 'drizzle-orm';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { STEP_UP_MESSAGE } from './passkey-ceremonies.ts';

const ADMIN = 'admin@example.com';
/** The pages' origin: https, as behind an ingress that ends TLS, while every request reaches the instance as http. */
const PAGES = 'https://localhost';

const setCookieOf = (response: { headers: Record<string, unknown> }) => String(response.headers['set-cookie'] ?? '');

describe('the step-up cookie behind an ingress that ends TLS, and at sign-out', () => {
  const t = useTestApp({ env: { WEBAUTHN_RP_ID: 'localhost', WEBAUTHN_ORIGINS: PAGES } });

  /** An admin with a passkey of the configured origin, confirmed once: the secret their browser now holds. */
  async function confirmedAdmin() {
    const admin = await t.createAccount(ADMIN, { admin: true, stepUp: false });
    const passkey = createSoftwareAuthenticator({ origin: PAGES });
    await enrollPasskey(t.callAs(admin.idToken), passkey, { enrollmentCode: await t.enrollmentCode(ADMIN) });
    const options = await t.app.inject({
      method: 'POST',
      url: '/api/me/step-up/options',
      headers: t.bearer(admin.idToken),
    });
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/me/step-up',
      headers: t.bearer(admin.idToken),
      payload: passkey.authenticate(options.json()),
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    const secret = /^portal_step_up=([A-Za-z0-9_-]+);/.exec(setCookieOf(confirmed))?.[1];
    assert.ok(secret);
    return { admin, confirmed, secret };
  }

  const listUsers = (idToken: string, secret: string) =>
    t.app.inject({
      url: '/api/users',
      headers: { authorization: `Bearer ${idToken}`, cookie: `portal_step_up=${secret}` },
    });

  it('is Secure when the pages are https, though the request reached the instance as http', async () => {
    const { confirmed } = await confirmedAdmin();
    assert.match(setCookieOf(confirmed), /; HttpOnly; SameSite=Strict; Secure$/);
  });

  it("signing out clears it and forgets the confirmation: the browser's secret confirms nothing after", async () => {
    const { admin, secret } = await confirmedAdmin();
    assert.equal((await listUsers(admin.idToken, secret)).statusCode, 200);
    const signedOut = await t.app.inject({
      method: 'DELETE',
      url: '/api/me/step-up',
      headers: { cookie: `portal_step_up=${secret}` },
    });
    assert.equal(signedOut.statusCode, 204, signedOut.body);
    assert.equal(setCookieOf(signedOut), 'portal_step_up=; Path=/api; Max-Age=0; HttpOnly; SameSite=Strict; Secure');
    const after = await listUsers(admin.idToken, secret);
    assert.equal(after.statusCode, 403);
    assert.equal(after.json().message, STEP_UP_MESSAGE);
    // Without a cookie (already gone, another browser) it answers the same, and forgets nothing else.
    const again = await t.app.inject({ method: 'DELETE', url: '/api/me/step-up' });
    assert.equal(again.statusCode, 204);
  });

  it('signing out while the database is away still clears the cookie', async () => {
    const { secret } = await confirmedAdmin();
    await t.database.db.execute(sql`alter table admin_confirmations rename to admin_confirmations_away`);
    try {
      const signedOut = await t.app.inject({
        method: 'DELETE',
        url: '/api/me/step-up',
        headers: { cookie: `portal_step_up=${secret}` },
      });
      assert.equal(signedOut.statusCode, 204, signedOut.body);
      assert.match(setCookieOf(signedOut), /^portal_step_up=; Path=\/api; Max-Age=0;/);
    } finally {
      await t.database.db.execute(sql`alter table admin_confirmations_away rename to admin_confirmations`);
    }
  });

  it('ending every session of the person clears it in the browser that asked', async () => {
    const { admin, secret } = await confirmedAdmin();
    const ended = await t.app.inject({
      method: 'DELETE',
      url: '/api/me/sessions',
      headers: { authorization: `Bearer ${admin.idToken}`, cookie: `portal_step_up=${secret}` },
    });
    assert.equal(ended.statusCode, 200, ended.body);
    assert.match(setCookieOf(ended), /^portal_step_up=; Path=\/api; Max-Age=0;/);
  });
});
