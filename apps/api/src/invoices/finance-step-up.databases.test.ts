import assert from 'node:assert/strict';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { enrollPasskey, stepUpWithPasskey } from '@portal/dev-stack/passkeys';
import { sql } from 'drizzle-orm';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { emulator, signIn } from '../../test/helpers/tokens.ts';
import { zipEntries } from '../../test/helpers/zip-entries.ts';
import { FINANCE_NO_PASSKEY_MESSAGE, STEP_UP_MESSAGE } from '../passkeys/passkey-ceremonies.ts';
import { SESSION_ENDED_MESSAGE, sessionIdleMessage } from '../sessions/session-lifetime.ts';
import { searchAllowanceMessage } from './audited-search.ts';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const FINANCE = 'money@example.com';
const SEARCHES_PER_MINUTE = 4;
const EXPORTS_PER_DAY = 3;
const fixture = readEInvoiceFixture;

describe('finance calls need the same passkey step-up as admin calls, audited, limited and capped', () => {
  const t = useTestApp({
    env: {
      INGEST_TOKEN,
      RATE_LIMIT_INVOICE_SEARCHES_PER_MINUTE: String(SEARCHES_PER_MINUTE),
      INVOICE_EXPORTS_PER_DAY: String(EXPORTS_PER_DAY),
      INVOICE_READ_TIMEOUT_MS: '120000',
    },
  });
  const headersOf = (idToken: string) => t.bearer(idToken);
  const search = (headers: Record<string, string>, query = '') =>
    t.app.inject({ url: `/api/invoices${query}`, headers });
  const zip = (headers: Record<string, string>, parcelCodes: string[]) =>
    t.app.inject({ method: 'POST', url: '/api/invoices/zip', payload: { parcelCodes }, headers });
  const refusalOf = (response: { statusCode: number; json(): unknown }) => ({
    status: response.statusCode,
    ...(response.json() as { code: string; message: string }),
  });

  async function ingest(codes: string[]) {
    for (const code of codes) {
      const stored = await t.app.inject({
        method: 'PUT',
        url: `/api/invoices/${code}`,
        payload: await fixture('xrechnung-ubl.xml'),
        headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/xml' },
      });
      assert.equal(stored.statusCode, 201, stored.body);
    }
  }

  async function auditOf(action: string) {
    await t.app.domain.auditWriter.flush();
    const entries = await t.app.domain.audit.list({ limit: 50, offset: 0 });
    return entries.filter((entry) => entry.action === action);
  }

  it('refuses a finance sign-in without a passkey, and one whose password was phished, on every finance call', async () => {
    const finance = await t.createAccount(FINANCE, { finance: true, stepUp: false });
    for (const response of [await search(headersOf(finance.idToken)), await zip(headersOf(finance.idToken), ['A1'])]) {
      assert.deepEqual(refusalOf(response), {
        status: 403,
        code: 'step-up-required',
        message: FINANCE_NO_PASSKEY_MESSAGE,
      });
    }
    // Finance users reach the ceremonies (the admin role is not needed for them), and enroll with a code.
    const status = await t.app.inject({ url: '/api/me/step-up', headers: headersOf(finance.idToken) });
    assert.equal(status.statusCode, 200, status.body);
    assert.equal(status.json().passkeys, 0);
    await enrollPasskey(t.callAs(finance.idToken), finance.passkey, {
      enrollmentCode: await t.enrollmentCode(FINANCE),
    });
    assert.equal((await search(headersOf(finance.idToken))).statusCode, 200);

    // The phished password: a sign-in of its own, without the browser's secret, is refused however it asks.
    const phished = { authorization: `Bearer ${(await signIn(FINANCE)).idToken}` };
    assert.deepEqual(refusalOf(await search(phished)), {
      status: 403,
      code: 'step-up-required',
      message: STEP_UP_MESSAGE,
    });
    assert.equal((await zip(phished, ['A1'])).statusCode, 403);
    // Nor can it set up a passkey of its own: the account has one, so a new one needs a confirmation with it.
    const ownKey = await t.app.inject({ method: 'POST', url: '/api/me/passkeys/options', headers: phished });
    assert.equal(ownKey.json().code, 'step-up-required');

    // A plain user still reaches no ceremony and no finance call.
    const user = await t.createAccount('user@example.com');
    assert.equal((await t.app.inject({ url: '/api/me/step-up', headers: headersOf(user.idToken) })).statusCode, 403);
    assert.equal(refusalOf(await search(headersOf(user.idToken))).code, 'forbidden');
  });

  it('gives the enrollment code to whoever grants the role, and an administrator can reset a finance passkey', async () => {
    const admin = await t.createAccount('boss@example.com', { admin: true });
    const person = await t.createAccount(FINANCE);
    const granted = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${FINANCE}`,
      payload: { finance: true },
      headers: headersOf(admin.idToken),
    });
    assert.equal(granted.statusCode, 200, granted.body);
    const { code } = granted.json().enrollment as { code: string };
    await enrollPasskey(t.callAs(person.idToken), person.passkey, { enrollmentCode: code });
    assert.equal((await search(headersOf(person.idToken))).statusCode, 200);
    // The code was for one passkey: used up, and the grant is audited with the code's issue.
    const codes = (await auditOf('passkeys.enrollment-code')).filter((entry) => entry.target === FINANCE);
    assert.deepEqual(
      codes.map((entry) => [entry.actor, entry.target]),
      [['boss@example.com', FINANCE]],
    );

    // The user list shows the finance user's passkey, as it shows an administrator's.
    const list = await t.app.inject({ url: '/api/users', headers: headersOf(admin.idToken) });
    const row = (list.json() as { email: string; passkeys?: unknown[] }[]).find((item) => item.email === FINANCE);
    assert.equal(row?.passkeys?.length, 1);

    // Lost phone: another administrator resets it; the finance user's sessions end, and a new code is answered.
    const reset = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${FINANCE}/passkeys`,
      headers: headersOf(admin.idToken),
    });
    assert.equal(reset.statusCode, 200, reset.body);
    assert.equal(reset.json().removed, 1);
    assert.match(reset.json().enrollment.code, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  });

  it('audits every search with its filters and result count, folded per minute, and limits how often', async () => {
    await ingest(['S1', 'S2']);
    const finance = await t.createAccount(FINANCE, { finance: true });
    const headers = headersOf(finance.idToken);
    assert.equal((await search(headers, '?seller=Seller&limit=1')).statusCode, 200);
    // The next page of the same search: one entry, counted twice.
    assert.equal((await search(headers, '?seller=Seller&limit=1&offset=1')).statusCode, 200);
    assert.equal((await search(headers, '?parcelCode=S1')).statusCode, 200);
    const entries = await auditOf('invoice.search');
    assert.deepEqual(
      entries.map((entry) => [entry.actor, entry.outcome, entry.detail, entry.count]).sort(),
      [
        [FINANCE, 'ok', 'parcelCode="S1"; 1 result', 1],
        [FINANCE, 'ok', 'seller="Seller"; 2 results', 2],
      ].sort(),
    );

    // The allowance: SEARCHES_PER_MINUTE a minute, then 429 with when to try again, and the refusal audited.
    let refused;
    for (let index = 0; index < SEARCHES_PER_MINUTE + 1 && !refused; index++) {
      const response = await search(headers, '?format=ubl');
      if (response.statusCode === 429) refused = response;
      else assert.equal(response.statusCode, 200, response.body);
    }
    assert.ok(refused, 'the allowance was never reached');
    const seconds = Number(refused.headers['retry-after']);
    assert.ok(seconds > 0);
    assert.deepEqual(refusalOf(refused), {
      status: 429,
      code: 'rate-limited',
      message: searchAllowanceMessage(SEARCHES_PER_MINUTE, seconds),
    });
    const refusals = (await auditOf('invoice.search')).filter((entry) => entry.outcome === 'refused');
    assert.equal(refusals.length, 1);
    assert.match(refusals[0]?.detail ?? '', /^search allowance spent; format="ubl"$/);
  });

  it('caps the invoices one person exports in a day, says how many are left, and counts each refusal', async () => {
    await ingest(['Z1', 'Z2', 'Z3']);
    const finance = await t.createAccount(FINANCE, { finance: true });
    const headers = headersOf(finance.idToken);
    const first = await zip(headers, ['Z1', 'Z2']);
    assert.equal(first.statusCode, 200, first.body);
    // The CSV names each payment account by its last four characters only.
    const csv = zipEntries(first.rawPayload)[0]!.data.toString('utf8');
    assert.match(csv, /\*{18}7890/);
    assert.doesNotMatch(csv, /DE79000000001234567890/);

    const before = (await t.app.domain.metrics.invoiceExportCeilingRefusals.get()).values[0]?.value ?? 0;
    const over = await zip(headers, ['Z2', 'Z3']);
    assert.deepEqual(refusalOf(over), {
      status: 429,
      code: 'rate-limited',
      message:
        'This ZIP holds 2 invoices, and you may export 1 more today (at most 3 a day). Choose fewer invoices, ' +
        'or ask an administrator if you need more today.',
    });
    assert.ok(Number(over.headers['retry-after']) > 0);
    assert.equal((await zip(headers, ['Z3'])).statusCode, 200, 'the one left today');
    const spent = await zip(headers, ['Z1']);
    assert.equal(spent.statusCode, 429);
    assert.match(spent.json().message, /^You have exported 3 invoices today, as many as one person may in a day\./);
    const after = (await t.app.domain.metrics.invoiceExportCeilingRefusals.get()).values[0]?.value ?? 0;
    assert.equal(after - before, 2);
    const zips = await auditOf('invoice.download-zip');
    assert.deepEqual(
      zips.filter((entry) => entry.outcome === 'refused').map((entry) => entry.detail),
      ['daily export ceiling: 0 left today', 'daily export ceiling: 1 left today'],
    );
  });

  it('ends a finance sign-in whose browser went quiet for longer than the idle time', async () => {
    const finance = await t.createAccount(FINANCE, { finance: true });
    const headers = headersOf(finance.idToken);
    assert.equal((await search(headers)).statusCode, 200);
    // As if the last call was an hour ago (the idle time is 30 minutes).
    await t.database.db.execute(sql`update admin_confirmations set last_seen_at = now() - interval '1 hour'`);
    const ended = await search(headers);
    assert.deepEqual(refusalOf(ended), {
      status: 401,
      code: 'session-expired',
      message: sessionIdleMessage(30 * 60_000),
    });
    assert.equal(
      ended.json().message,
      'Your session has ended after 30 minutes without activity. Please sign in again.',
    );
    // A passkey alone does not bring the quiet sign-in back: the ceremonies refuse it too.
    const again = await t.app.inject({ url: '/api/me/step-up', headers });
    assert.equal(again.statusCode, 401);
    // A new sign-in starts afresh and confirms with its passkey (a second later: sign-ins count whole seconds).
    await sleep(1100);
    const fresh = await signIn(FINANCE);
    await stepUpWithPasskey(t.callAs(fresh.idToken), finance.passkey);
    assert.equal((await search(headersOf(fresh.idToken))).statusCode, 200);
  });

  it('keeps a busy sign-in alive: an accepted call notes the activity', async () => {
    const finance = await t.createAccount(FINANCE, { finance: true });
    await t.database.db.execute(sql`update admin_confirmations set last_seen_at = now() - interval '20 minutes'`);
    assert.equal((await search(headersOf(finance.idToken))).statusCode, 200);
    const result = (await t.database.db.execute(
      sql`select count(*)::int as quiet from admin_confirmations where last_seen_at < now() - interval '1 minute'`,
    )) as unknown as { rows: { quiet: number }[] };
    assert.equal(result.rows[0]?.quiet, 0);
  });
});

describe('a finance sign-in lives no longer than FINANCE_SESSION_MAX_AGE_HOURS', () => {
  // Seconds instead of hours: users 1 h, finance 3 s (and their step-ups 2 s).
  const t = useTestApp({
    env: {
      SESSION_MAX_AGE_HOURS: '1',
      FINANCE_SESSION_MAX_AGE_HOURS: String(3 / 3600),
      ADMIN_STEP_UP_MAX_AGE_SECONDS: '2',
    },
  });

  it('refuses the finance sign-in after its lifetime, however fresh the token', async () => {
    const finance = await t.createAccount(FINANCE, { finance: true, stepUp: false });
    const lookUp = (idToken: string) =>
      t.app.inject({ url: `/api/users/${FINANCE}`, headers: { authorization: `Bearer ${idToken}` } });
    assert.equal((await lookUp(finance.idToken)).statusCode, 200);
    await sleep(3200);
    const refreshed = await emulator().refresh(finance.refreshToken);
    const refused = await lookUp(String(refreshed.body.id_token));
    assert.deepEqual(refusalOf(refused), { status: 401, code: 'session-expired', message: SESSION_ENDED_MESSAGE });
  });

  const refusalOf = (response: { statusCode: number; json(): unknown }) => ({
    status: response.statusCode,
    ...(response.json() as { code: string; message: string }),
  });
});
