import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSoftwareAuthenticator, enrollPasskey } from '@portal/dev-stack/passkeys';
import { INJECT_ORIGIN, useTestApp } from './helpers/test-app.ts';
import { DEMO_ACCOUNTS, DEMO_PARCEL_CODES } from '@portal/dev-stack';
import { seedDemoData, seedDemoInvoices } from '@portal/dev-stack/demo';
import { signIn } from './helpers/tokens.ts';
import { invoiceVersionsOf } from './helpers/fixtures.ts';

describe('seedDemoInvoices', () => {
  const t = useTestApp();

  it('stores a real PDF for each demo code, once however often it runs', async () => {
    assert.deepEqual(await seedDemoInvoices(t.blobStore, t.app.domain.invoices), {
      DEMO000001: 'created',
      DEMO000002: 'created',
      DEMO000003: 'created',
    });
    assert.deepEqual(await seedDemoInvoices(t.blobStore, t.app.domain.invoices), {
      DEMO000001: 'unchanged',
      DEMO000002: 'unchanged',
      DEMO000003: 'unchanged',
    });
    const user = await t.createAccount('user@example.com');
    const hashes = new Set<string>();
    for (const code of DEMO_PARCEL_CODES) {
      assert.equal((await invoiceVersionsOf(t.database, code)).length, 1);
      const response = await t.app.inject({ url: `/api/invoice?parcelCode=${code}`, headers: t.bearer(user.idToken) });
      assert.equal(response.statusCode, 200);
      assert.equal(response.rawPayload.subarray(0, 5).toString(), '%PDF-');
      hashes.add((await t.app.domain.invoices.findByParcelCode(code))?.sha256 ?? '');
    }
    assert.equal(hashes.size, DEMO_PARCEL_CODES.length, 'each demo code has its own invoice');
  });

  it('seeds the demo accounts once: the listed ones on the allowlist, the outsider only at the emulator', async () => {
    await seedDemoData(t.domain);
    await seedDemoData(t.domain);
    const { items } = await t.app.domain.users.list();
    const listed = DEMO_ACCOUNTS.filter((account) => account.allowlisted);
    assert.deepEqual(
      items.map((row) => [row.email, row.admin, row.activated]),
      listed.map((account) => [account.email, account.admin, account.activated]).sort(),
    );
    for (const account of DEMO_ACCOUNTS) {
      if (!account.password) continue;
      const { uid } = await signIn(account.email, account.password);
      const row = items.find((candidate) => candidate.email === account.email);
      if (account.allowlisted) assert.equal(row?.firebaseUid, uid, `${account.email} is linked to its account`);
      else assert.equal(row, undefined);
    }
  });

  it('issues the demo finance user a code for their first passkey, with which the Invoices page opens', async () => {
    const seed = await seedDemoData(t.domain);
    const finance = DEMO_ACCOUNTS.find((account) => account.finance && !account.admin && account.allowlisted);
    assert.ok(finance?.password);
    const code = seed.financeEnrollment?.code ?? '';
    assert.match(code, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const { idToken } = await signIn(finance.email, finance.password);
    assert.equal((await t.app.inject({ url: '/api/invoices', headers: t.bearer(idToken) })).statusCode, 403);
    await enrollPasskey(t.callAs(idToken), createSoftwareAuthenticator({ origin: INJECT_ORIGIN }), {
      enrollmentCode: code,
    });
    assert.equal((await t.app.inject({ url: '/api/invoices', headers: t.bearer(idToken) })).statusCode, 200);
  });
});
