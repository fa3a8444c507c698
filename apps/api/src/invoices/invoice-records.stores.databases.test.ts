import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ArrivalNotice, InvoiceHistory, RecentInvoices } from '@portal/contract';
import { startMailCatcher, type MailCatcher } from '@portal/dev-stack';
import { sql } from 'drizzle-orm';
import { fakePdf, sha256Of } from '../../test/helpers/fixtures.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { EARLIER_VERSION_MESSAGE } from './invoice-access.ts';
import { RECENT_INVOICES } from './recent-invoices.ts';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';

const INGEST_TOKEN = 'test-ingest-token-0123456789abcdefghijklmnop';
const service = { authorization: `Bearer ${INGEST_TOKEN}` };
const fixture = readEInvoiceFixture;

/** The Peppol fixture paying into `account`, due `amount`. */
async function ubl(account: string, amount = '1656.25'): Promise<Buffer> {
  const original = (await fixture('peppol-invoice.xml')).toString('utf8');
  const xml = original
    .replace(/(<cac:PayeeFinancialAccount>\s*<cbc:ID>)[^<]+/, `$1${account}`)
    .replace('<cbc:PayableAmount currencyID="EUR">1656.25', `<cbc:PayableAmount currencyID="EUR">${amount}`);
  assert.notEqual(xml, original);
  return Buffer.from(xml);
}

const A = 'DE02120300000000202051';
const B = 'GB33BUKB20201555555555';

/** Polls until `check` holds, for what a background job does (mail): a busy machine gets its time. */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('invoices as records: recently opened, history, arrival notices', () => {
  let catcher: MailCatcher;
  const env: Record<string, string> = { INGEST_TOKEN, PORTAL_URL: 'https://portal.example.com' };
  // Before the app is built: its configuration names the catcher as its relay.
  before(async () => {
    catcher = await startMailCatcher();
    env.SMTP_URL = catcher.smtpUrl;
    env.MAIL_FROM = 'Portal <portal@example.com>';
  });
  after(() => catcher?.close());
  const t = useTestApp({ env });

  const put = async (parcelCode: string, body: Uint8Array, headers: Record<string, string> = service) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload: Buffer.from(body),
      headers: { ...headers, 'content-type': body[0] === 0x3c ? 'application/xml' : 'application/pdf' },
    });
    assert.ok([200, 201].includes(response.statusCode), response.body);
    return response;
  };
  const get = (url: string, idToken: string) => t.app.inject({ url: `/api${url}`, headers: t.bearer(idToken) });
  const open = async (parcelCode: string, idToken: string) => {
    const response = await get(`/invoice?parcelCode=${parcelCode}`, idToken);
    assert.equal(response.statusCode, 200, response.body);
  };
  const recent = async (idToken: string) => {
    // The open is noted beside the answer, not before it: wait for it to land.
    const response = await get('/recent-invoices', idToken);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<RecentInvoices>().invoices.map((invoice) => invoice.parcelCode);
  };

  it("lists the person's own last 20 opened invoices, newest first, nobody else's, only those still there", async () => {
    const user = await t.createAccount('user@example.com');
    const other = await t.createAccount('other@example.com');
    for (let index = 1; index <= 23; index += 1) await put(`R${index}`, fakePdf(`r${index}`));
    for (let index = 1; index <= 23; index += 1) {
      await open(`R${index}`, user.idToken);
      await eventually(async () => (await recent(user.idToken))[0] === `R${index}`);
    }
    await open('R5', other.idToken);
    await open('R3', user.idToken);
    const list = await eventually(async () => {
      const codes = await recent(user.idToken);
      return codes[0] === 'R3' ? codes : undefined;
    });
    assert.equal(list.length, RECENT_INVOICES);
    assert.deepEqual(list.slice(0, 4), ['R3', 'R23', 'R22', 'R21']);
    assert.ok(!list.includes('R4') && !list.includes('R1'), 'the oldest fell off');
    assert.equal(await t.app.domain.recentInvoices.countFor('user@example.com'), RECENT_INVOICES, 'bounded rows');
    assert.deepEqual(
      await eventually(async () => ((await recent(other.idToken)).length ? recent(other.idToken) : undefined)),
      ['R5'],
    );

    // An invoice no longer there (removed under retention, say) is not offered.
    await t.database.db.execute(sql`delete from invoices where parcel_code = 'R22'`);
    assert.ok(!(await recent(user.idToken)).includes('R22'));

    // A refused open (unknown code) adds nothing.
    assert.equal((await get('/invoice?parcelCode=NOPE1', user.idToken)).statusCode, 404);
    assert.ok(!(await recent(user.idToken)).includes('NOPE1'));
    assert.equal((await t.app.inject({ url: '/api/recent-invoices' })).statusCode, 401);
  });

  it('shows every version with its sender, amounts, accounts and change markers; each downloadable, the current marked', async () => {
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const user = await t.createAccount('user@example.com');
    const v1 = await ubl(A);
    await put('H1', v1);
    await put('H1', await ubl(B, '1700.00'), t.bearer(admin.idToken));
    const v3 = fakePdf('plain');
    await put('H1', v3);
    await put('H1', v3); // the same bytes again: no new version

    // A stepped-up administrator reads the whole record: who sent each version, every account ever named.
    const whole = await get('/invoices/H1/versions', admin.idToken);
    assert.equal(whole.statusCode, 200, whole.body);
    const { versions } = whole.json<InvoiceHistory>();
    assert.equal(versions.length, 3);
    const [third, second, first] = versions;
    assert.deepEqual(
      versions.map((version) => [version.receivedFrom, version.format, version.current]),
      [
        ['service', 'pdf', true],
        ['admin@example.com', 'ubl', false],
        ['service', 'ubl', false],
      ],
    );
    assert.deepEqual([first!.amountDue, first!.currency, first!.paymentAccounts], ['1656.25', 'EUR', [A]]);
    assert.deepEqual([second!.amountDue, second!.paymentAccounts], ['1700.00', [B]]);

    // Anyone else with the code: the versions, dates, amounts and markers, the kind of sender, no past accounts.
    const response = await get('/invoices/H1/versions', user.idToken);
    assert.equal(response.statusCode, 200, response.body);
    const seen = response.json<InvoiceHistory>().versions;
    assert.deepEqual(
      seen.map((version) => [version.id, version.receivedFrom, version.receivedAt, version.current]),
      versions.map((version) => [
        version.id,
        version.receivedFrom === 'admin@example.com' ? 'administrator' : version.receivedFrom,
        version.receivedAt,
        version.current,
      ]),
    );
    assert.deepEqual(
      seen.map((version) => version.paymentAccounts),
      [null, null, null],
      'the current version is a plain PDF; the earlier accounts are not told',
    );
    assert.deepEqual(
      seen.map((version) => version.warnings),
      versions.map((version) => version.warnings),
    );
    assert.ok(!response.body.includes('admin@example.com') && !response.body.includes(A) && !response.body.includes(B));

    // An administrator whose passkey confirmation is not in this browser reads what everyone reads.
    const unconfirmed = await t.app.inject({
      url: '/api/invoices/H1/versions',
      headers: { authorization: `Bearer ${admin.idToken}` },
    });
    assert.equal(unconfirmed.statusCode, 200);
    assert.ok(!unconfirmed.body.includes('admin@example.com'));
    // A finance user without a passkey confirmation likewise.
    const finance = await t.createAccount('finance@example.com', { finance: true, stepUp: false });
    const financeView = await get('/invoices/H1/versions', finance.idToken);
    assert.ok(!financeView.body.includes('admin@example.com'), financeView.body);
    assert.deepEqual(first!.warnings, []);
    assert.deepEqual(
      second!.warnings.map((warning) => [warning.kind, warning.acknowledged]),
      [
        ['bank-details', false],
        ['amount', false],
      ],
    );
    assert.deepEqual(
      third!.warnings.map((warning) => warning.kind),
      ['e-invoice-removed'],
    );
    assert.equal(third!.sha256, sha256Of(v3));

    // Each version's own bytes, through the same allowances and audit as the current invoice: the earlier ones
    // for the stepped-up administrator, the current one for everyone.
    assert.deepEqual(
      seen.map((version) => version.downloadable),
      [true, false, false],
    );
    assert.ok(versions.every((version) => version.downloadable));
    const refused = await get(`/invoices/H1/versions/${first!.id}/xml`, user.idToken);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().message, EARLIER_VERSION_MESSAGE);
    assert.equal((await get(`/invoices/H1/versions/${third!.id}/pdf`, user.idToken)).statusCode, 200);
    const xml = await get(`/invoices/H1/versions/${first!.id}/xml`, admin.idToken);
    assert.equal(xml.statusCode, 200);
    assert.deepEqual(xml.rawPayload, v1);
    assert.match(String(xml.headers['content-disposition']), /H1-version-\d+\.xml/);
    const pdf = await get(`/invoices/H1/versions/${first!.id}/pdf`, admin.idToken);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.ok(pdf.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-')), 'the rendering of the XML-only version');
    assert.equal(
      (await get(`/invoices/H1/versions/${third!.id}/xml`, user.idToken)).statusCode,
      404,
      'a plain PDF has none',
    );

    // Another parcel's version id is not this parcel's.
    await put('H2', fakePdf('other'));
    const otherId = (await get('/invoices/H2/versions', user.idToken)).json<InvoiceHistory>().versions[0]!.id;
    const foreign = await get(`/invoices/H1/versions/${otherId}/pdf`, user.idToken);
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().message, 'This invoice has no such version.');
    assert.equal((await get('/invoices/NOPE/versions', user.idToken)).statusCode, 404);
    assert.equal((await get('/invoices/H1/versions/abc/pdf', user.idToken)).statusCode, 400);

    await t.app.domain.auditWriter.flush();
    const entries = await t.app.domain.audit.list({ limit: 100, offset: 0 });
    const audited = entries.filter((entry) => entry.actor === 'user@example.com' && entry.target === 'H1');
    assert.ok(
      entries.some(
        (entry) =>
          entry.actor === 'admin@example.com' &&
          entry.action === 'invoice.download-xml' &&
          entry.outcome === 'ok' &&
          entry.detail?.startsWith(`version ${first!.id} `),
      ),
    );
    assert.ok(
      audited.some(
        (entry) =>
          entry.action === 'invoice.download-xml' &&
          entry.outcome === 'refused' &&
          entry.detail === `version ${first!.id}`,
      ),
      'the refused earlier version is audited',
    );
    assert.ok(audited.some((entry) => entry.action === 'invoice.history'));
    // A version download is not an "opened" invoice for the recent list; only the screen's PDF is.
    assert.deepEqual(await recent(user.idToken), []);
  });

  it('mails the person once when the invoice arrives, with its link; lists and cancels requests; 20 at most', async () => {
    catcher.mails.length = 0;
    const user = await t.createAccount('user@example.com');
    const other = await t.createAccount('other@example.com');
    const ask = (parcelCode: string, idToken: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/arrival-notices',
        headers: t.bearer(idToken),
        payload: { parcelCode },
      });

    const created = await ask('ARRIVE1', user.idToken);
    assert.equal(created.statusCode, 201, created.body);
    assert.equal((await ask('ARRIVE1', user.idToken)).statusCode, 200, 'asking again renews the one request');
    const cancelMe = (await ask('ARRIVE2', user.idToken)).json<ArrivalNotice>();
    const listed = (await get('/arrival-notices', user.idToken)).json<{ notices: ArrivalNotice[] }>().notices;
    assert.deepEqual(
      listed.map((notice) => notice.parcelCode),
      ['ARRIVE1', 'ARRIVE2'],
    );
    const days = (Date.parse(listed[0]!.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
    assert.deepEqual((await get('/arrival-notices', other.idToken)).json().notices, [], 'only their own');
    assert.equal(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/arrival-notices/${cancelMe.id}`,
          headers: t.bearer(other.idToken),
        })
      ).statusCode,
      404,
      'nobody cancels another person’s request',
    );
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/arrival-notices/${cancelMe.id}`,
      headers: t.bearer(user.idToken),
    });
    assert.equal(cancelled.statusCode, 200);

    const started = Date.now();
    await put('ARRIVE1', fakePdf('arrived'));
    await put('ARRIVE2', fakePdf('cancelled'));
    const [mail] = await eventually(() => (catcher.mails.length > 0 ? catcher.mails : undefined));
    assert.equal(mail!.subject, 'The invoice for parcel ARRIVE1 has arrived');
    assert.deepEqual(mail!.to, ['user@example.com']);
    assert.match(mail!.text, /https:\/\/portal\.example\.com\/invoice\?parcelCode=ARRIVE1/);
    assert.ok(Date.now() - started < 10_000, 'sent at once, not at the next poll');
    // One mail only: a later version sends nothing, and the cancelled request sent nothing.
    await put('ARRIVE1', fakePdf('arrived again'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await t.app.domain.arrivalNotifier.runDue();
    assert.equal(catcher.mails.length, 1);
    assert.deepEqual((await get('/arrival-notices', user.idToken)).json().notices, []);

    for (let index = 0; index < 20; index += 1)
      assert.equal((await ask(`MANY${index}`, other.idToken)).statusCode, 201);
    const full = await ask('MANY20', other.idToken);
    assert.equal(full.statusCode, 409);
    assert.match(full.json().message, /cancel a request/);
    assert.equal((await ask('bad code!', user.idToken)).statusCode, 400);
  });

  it('sends no mail to a person who could no longer open the invoice', async () => {
    catcher.mails.length = 0;
    const admin = await t.createAccount('admin@example.com', { admin: true });
    const leaver = await t.createAccount('leaver@example.com');
    const stayer = await t.createAccount('stayer@example.com');
    for (const account of [leaver, stayer]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/arrival-notices',
        headers: t.bearer(account.idToken),
        payload: { parcelCode: 'GONE1' },
      });
      assert.equal(response.statusCode, 201);
    }
    // Removed from the allowlist while the request waited: the request goes with the row.
    await t.database.db.execute(sql`delete from users where email = 'leaver@example.com'`);
    void admin;
    await put('GONE1', fakePdf('gone'));
    await eventually(() => (catcher.mails.length > 0 ? true : undefined));
    await t.app.domain.arrivalNotifier.runDue();
    assert.deepEqual(
      catcher.mails.map((mail) => mail.to[0]),
      ['stayer@example.com'],
    );

    // Checked again at send time: a due request whose invoice is gone (or person refused) is dropped unsent.
    const ask = await t.app.inject({
      method: 'POST',
      url: '/api/arrival-notices',
      headers: t.bearer(stayer.idToken),
      payload: { parcelCode: 'NEVER1' },
    });
    assert.equal(ask.statusCode, 201);
    await t.database.db.execute(
      sql`update invoice_arrival_notices set arrived_at = now(), next_attempt_at = now() where parcel_code = 'NEVER1'`,
    );
    const outcome = await t.app.domain.arrivalNotifier.runDue();
    assert.equal(outcome.sent, 0);
    assert.equal(catcher.mails.length, 1);
    // Whichever round took it (this one or the background's), it is audited as refused.
    const refused = await eventually(async () =>
      (await t.app.domain.audit.list({ limit: 100, offset: 0 })).find(
        (entry) => entry.action === 'invoice.arrival-notice' && entry.target === 'NEVER1',
      ),
    );
    assert.equal(refused?.outcome, 'refused');
    assert.match(refused?.detail ?? '', /the parcel has no invoice/);
  });

  it('keeps the mail through a relay outage and sends it when the relay is back; the upload never waits', async () => {
    catcher.mails.length = 0;
    const user = await t.createAccount('user@example.com');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/arrival-notices',
      headers: t.bearer(user.idToken),
      payload: { parcelCode: 'OUTAGE1' },
    });
    assert.equal(response.statusCode, 201);
    await catcher.stopSmtp();
    try {
      const before = Date.now();
      await put('OUTAGE1', fakePdf('outage'));
      assert.ok(Date.now() - before < 5_000, 'the upload is answered without the relay');
      const failed = await eventually(async () => {
        const result = (await t.database.db.execute(
          sql`select attempts, last_error from invoice_arrival_notices where parcel_code = 'OUTAGE1'`,
        )) as unknown as { rows: { attempts: number; last_error: string | null }[] };
        const [row] = result.rows;
        return row?.last_error ? row : undefined;
      });
      assert.ok(failed.attempts >= 1);
      assert.equal(catcher.mails.length, 0);
    } finally {
      await catcher.startSmtp();
    }
    // Due again after its back-off (5 s for a first failure): a poll takes it up.
    const [mail] = await eventually(() => (catcher.mails.length > 0 ? catcher.mails : undefined), 60_000);
    assert.equal(mail!.subject, 'The invoice for parcel OUTAGE1 has arrived');
    // The mail leaves before its request is closed and audited: the entry comes a moment after the mail.
    const audited = await eventually(async () => {
      await t.app.domain.auditWriter.flush();
      const outcomes = (await t.app.domain.audit.list({ limit: 100, offset: 0 }))
        .filter((entry) => entry.action === 'invoice.arrival-notice')
        .map((entry) => entry.outcome);
      return outcomes.includes('ok') ? outcomes.sort() : undefined;
    });
    assert.deepEqual(audited, ['failed', 'ok']);
  });
});
