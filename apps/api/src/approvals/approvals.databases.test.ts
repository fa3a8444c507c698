import assert from 'node:assert/strict';
import { readEInvoiceFixture } from '@portal/dev-stack/e-invoice-samples';
import { describe, it } from 'node:test';
import type { Approval, InvoiceFacts } from '@portal/contract';
import { enrollPasskey } from '@portal/dev-stack/passkeys';
import { sql } from 'drizzle-orm';
import { failingIdentity } from '../../test/helpers/failing-identity.ts';
import { useTestApp } from '../../test/helpers/test-app.ts';
import { MADE_AFTER_MESSAGE, MADE_BY_UPLOADER_MESSAGE } from '../invoices/warnings-repository.ts';
import { DECIDED_OR_EXPIRED_MESSAGE, OWN_REQUEST_MESSAGE } from './admin-approvals.ts';

const ACCOUNT_A = 'DE02120300000000202051';
const ACCOUNT_B = 'GB33BUKB20201555555555';

/** The Peppol fixture paying into `account`. */
async function ublPayingInto(account: string): Promise<Buffer> {
  const original = (await readEInvoiceFixture('peppol-invoice.xml')).toString('utf8');
  const xml = original.replace(
    /<cac:PaymentMeans>[\s\S]*<\/cac:PaymentMeans>/,
    `<cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>${account}</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>`,
  );
  assert.notEqual(xml, original);
  return Buffer.from(xml);
}

describe('four eyes that are two people: promotions and passkey resets wait for a second administrator', () => {
  const faults = failingIdentity();
  const t = useTestApp({ env: { RATE_LIMIT_LOOKUPS_PER_MINUTE: '10000' }, wrapIdentity: faults.wrap });
  type Account = Awaited<ReturnType<typeof t.createAccount>>;

  const as = (account: Account) => t.bearer(account.idToken);
  const promote = (by: Account, email: string) =>
    t.app.inject({ method: 'PATCH', url: `/api/users/${email}`, headers: as(by), payload: { admin: true } });
  const reset = (by: Account, email: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/${email}/passkeys`, headers: as(by) });
  const listApprovals = async (by: Account) => {
    const response = await t.app.inject({ url: '/api/approvals', headers: as(by) });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Approval[]>();
  };
  const decide = (by: Account, id: number, decision: 'approve' | 'reject') =>
    t.app.inject({ method: 'POST', url: `/api/approvals/${id}/${decision}`, headers: as(by) });
  const isAdmin = async (email: string) => (await t.app.domain.users.findByEmail(email))?.admin;
  const codesFor = async (email: string) => {
    const result = (await t.database.db.execute(
      sql`select 1 from admin_enrollment_codes where email = ${email}`,
    )) as unknown as { rows: unknown[] };
    return result.rows.length;
  };
  const trustChanges = async () => {
    const metric = await t.app.domain.metrics.adminTrustChanges.get();
    return Object.fromEntries(metric.values.map((value) => [value.labels.change, value.value]));
  };
  const upload = async (by: Account, parcelCode: string, account: string) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/invoices/${parcelCode}`,
      payload: await ublPayingInto(account),
      headers: { ...as(by), 'content-type': 'application/xml' },
    });
    assert.ok([200, 201].includes(response.statusCode), response.body);
  };
  const warningOn = async (parcelCode: string, by: Account) => {
    const response = await t.app.inject({ url: `/api/invoices/${parcelCode}`, headers: as(by) });
    assert.equal(response.statusCode, 200, response.body);
    const [warning] = response.json<InvoiceFacts>().warnings;
    assert.ok(warning, 'the changed account raised a warning');
    return warning.id;
  };
  const acknowledge = (by: Account, parcelCode: string, warningId: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/invoices/${parcelCode}/warnings/${warningId}/acknowledge`,
      headers: as(by),
    });

  it('refuses the puppet-admin sequence: no code in the answer, no self-approval, no acknowledgement by a puppet', async () => {
    const uploader = await t.createAccount('uploader@example.com', { admin: true });
    const colleague = await t.createAccount('colleague@example.com', { admin: true });
    const puppet = await t.createAccount('puppet@example.com');
    await upload(uploader, 'PUPPET0001', ACCOUNT_A);
    await upload(uploader, 'PUPPET0001', ACCOUNT_B);
    const warningId = await warningOn('PUPPET0001', colleague);
    // The uploader cannot clear their own warning, as before.
    assert.equal((await acknowledge(uploader, 'PUPPET0001', warningId)).statusCode, 403);

    // The promotion waits: nothing changed, and no enrollment code was issued, to the answer or anywhere.
    const asked = await promote(uploader, 'puppet@example.com');
    assert.equal(asked.statusCode, 202, asked.body);
    const body = asked.json<{ admin: boolean; approval: Approval; enrollment?: unknown }>();
    assert.equal(body.enrollment, undefined);
    assert.doesNotMatch(asked.body, /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/);
    assert.equal(body.admin, false);
    assert.equal(body.approval.kind, 'make-admin');
    assert.equal(body.approval.requestedBy, 'uploader@example.com');
    assert.equal(await isAdmin('puppet@example.com'), false);
    assert.equal(await codesFor('puppet@example.com'), 0);

    // Whoever asked cannot approve it, and asking again is not a second request.
    const selfApproval = await decide(uploader, body.approval.id, 'approve');
    assert.equal(selfApproval.statusCode, 403);
    assert.equal(selfApproval.json().message, OWN_REQUEST_MESSAGE);
    assert.equal((await promote(uploader, 'puppet@example.com')).statusCode, 409);
    assert.equal(await isAdmin('puppet@example.com'), false);
    // Nor can the uploader mint a code by resetting the puppet's passkeys: it is not an administrator.
    assert.equal((await reset(uploader, 'puppet@example.com')).statusCode, 409);
    assert.equal(await codesFor('puppet@example.com'), 0);

    // Even once a second administrator approves, someone the uploader made is not a second person.
    const approved = await decide(colleague, body.approval.id, 'approve');
    assert.equal(approved.statusCode, 200, approved.body);
    const code = approved.json<{ enrollment: { code: string } }>().enrollment.code;
    await enrollPasskey(t.callAs(puppet.idToken), puppet.passkey, { enrollmentCode: code });
    const byPuppet = await acknowledge(puppet, 'PUPPET0001', warningId);
    assert.equal(byPuppet.statusCode, 403, byPuppet.body);
    assert.equal(byPuppet.json().message, MADE_BY_UPLOADER_MESSAGE);

    // Nor is someone made an administrator after the upload, whoever made them.
    const late = await t.createAccount('late@example.com');
    const lateRequest = await promote(colleague, 'late@example.com');
    assert.equal(lateRequest.statusCode, 202, lateRequest.body);
    const lateApproval = await decide(puppet, lateRequest.json<{ approval: Approval }>().approval.id, 'approve');
    assert.equal(lateApproval.statusCode, 200, lateApproval.body);
    const lateCode = lateApproval.json<{ enrollment: { code: string } }>().enrollment.code;
    await enrollPasskey(t.callAs(late.idToken), late.passkey, { enrollmentCode: lateCode });
    const byLate = await acknowledge(late, 'PUPPET0001', warningId);
    assert.equal(byLate.statusCode, 403, byLate.body);
    assert.equal(byLate.json().message, MADE_AFTER_MESSAGE);

    // An administrator from before, whom the uploader did not make, is the second person.
    const bySecond = await acknowledge(colleague, 'PUPPET0001', warningId);
    assert.equal(bySecond.statusCode, 200, bySecond.body);

    const refusals = (await t.app.domain.audit.list({ limit: 200, offset: 0 }))
      .filter((entry) => entry.outcome === 'refused')
      .map((entry) => `${entry.actor} ${entry.action} ${entry.target}`);
    assert.ok(refusals.includes('uploader@example.com users.approval-approved puppet@example.com'), String(refusals));
    assert.ok(refusals.includes('puppet@example.com invoice.warning-acknowledged PUPPET0001'), String(refusals));
    assert.ok(refusals.includes('late@example.com invoice.warning-acknowledged PUPPET0001'), String(refusals));
  });

  it('shows the enrollment code to the approver only, and counts the change for the alert', async () => {
    const asker = await t.createAccount('asker@example.com', { admin: true });
    const approver = await t.createAccount('approver@example.com', { admin: true });
    const newcomer = await t.createAccount('newcomer@example.com');
    const before = await trustChanges();

    const asked = await promote(asker, 'newcomer@example.com');
    assert.equal(asked.statusCode, 202, asked.body);
    assert.equal((await trustChanges()).promotion, before.promotion, 'nothing changed yet');
    const [waiting] = await listApprovals(approver);
    assert.deepEqual(
      { ...waiting, requestedAt: undefined, expiresAt: undefined, id: undefined },
      {
        id: undefined,
        kind: 'make-admin',
        email: 'newcomer@example.com',
        requestedBy: 'asker@example.com',
        requestedAt: undefined,
        expiresAt: undefined,
        decision: null,
        decidedBy: null,
        decidedAt: null,
      },
    );
    assert.ok(waiting && Date.parse(waiting.expiresAt) > Date.now() + 23 * 3_600_000);
    // Admin calls: a user is refused the list and the decisions.
    assert.equal((await t.app.inject({ url: '/api/approvals', headers: as(newcomer) })).statusCode, 403);
    assert.equal((await decide(newcomer, waiting!.id, 'approve')).statusCode, 403);

    const approved = await decide(approver, waiting!.id, 'approve');
    assert.equal(approved.statusCode, 200, approved.body);
    assert.equal(approved.headers['cache-control'], 'no-store');
    const done = approved.json<{ approval: Approval; enrollment: { code: string } }>();
    assert.equal(done.approval.decision, 'approved');
    assert.equal(done.approval.decidedBy, 'approver@example.com');
    assert.equal(await isAdmin('newcomer@example.com'), true);
    const row = await t.app.domain.users.findByEmail('newcomer@example.com');
    assert.equal(row?.adminGrantedBy, 'asker@example.com');
    assert.equal(row?.adminApprovedBy, 'approver@example.com');
    await enrollPasskey(t.callAs(newcomer.idToken), newcomer.passkey, { enrollmentCode: done.enrollment.code });
    assert.equal((await t.app.inject({ url: '/api/users', headers: as(newcomer) })).statusCode, 200);
    assert.equal((await trustChanges()).promotion, (before.promotion ?? 0) + 1);
    // Decided: gone from the list, and not approved twice.
    assert.deepEqual(await listApprovals(asker), []);
    const again = await decide(approver, waiting!.id, 'approve');
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().message, DECIDED_OR_EXPIRED_MESSAGE);

    const [entry] = (await t.app.domain.audit.list({ limit: 50, offset: 0 })).filter(
      (candidate) => candidate.action === 'users.make-admin',
    );
    assert.equal(entry?.actor, 'approver@example.com');
  });

  it('lets a third administrator approve a passkey reset, never whom it is about', async () => {
    const asker = await t.createAccount('asker@example.com', { admin: true });
    const target = await t.createAccount('target@example.com', { admin: true });
    const third = await t.createAccount('third@example.com', { admin: true });
    const before = await trustChanges();

    const asked = await reset(asker, 'target@example.com');
    assert.equal(asked.statusCode, 202, asked.body);
    assert.doesNotMatch(asked.body, /"code"/);
    const { approval } = asked.json<{ approval: Approval }>();
    assert.equal(approval.kind, 'reset-passkeys');
    assert.equal(await t.app.domain.passkeys.passkeysOf(['target@example.com']).then((map) => map.size), 1);

    assert.equal((await decide(target, approval.id, 'approve')).statusCode, 403);
    const approved = await decide(third, approval.id, 'approve');
    assert.equal(approved.statusCode, 200, approved.body);
    assert.match(approved.json<{ enrollment: { code: string } }>().enrollment.code, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    assert.equal(await t.app.domain.passkeys.passkeysOf(['target@example.com']).then((map) => map.size), 0);
    assert.equal((await trustChanges())['passkey-reset'], (before['passkey-reset'] ?? 0) + 1);
  });

  it('leaves an approved reset waiting when the sign-in service cannot end the sessions, and nothing changed', async () => {
    const asker = await t.createAccount('asker@example.com', { admin: true });
    await t.createAccount('target@example.com', { admin: true });
    const third = await t.createAccount('third@example.com', { admin: true });
    const { approval } = (await reset(asker, 'target@example.com')).json<{ approval: Approval }>();
    faults.fail('revokeSessions');
    try {
      const refused = await decide(third, approval.id, 'approve');
      assert.equal(refused.statusCode, 503, refused.body);
      assert.equal(typeof refused.json().message, 'string');
    } finally {
      faults.heal();
    }
    assert.equal(await t.app.domain.passkeys.passkeysOf(['target@example.com']).then((map) => map.size), 1);
    assert.deepEqual(
      (await listApprovals(third)).map((waiting) => waiting.id),
      [approval.id],
      'still waiting, to be approved once the service is back',
    );
    assert.equal((await decide(third, approval.id, 'approve')).statusCode, 200);
  });

  it('acts at once, with the code, where nobody but the caller and the person could approve', async () => {
    const only = await t.createAccount('only@example.com', { admin: true });
    await t.createAccount('second@example.com');
    const promoted = await promote(only, 'second@example.com');
    assert.equal(promoted.statusCode, 200, promoted.body);
    assert.match(promoted.json<{ enrollment: { code: string } }>().enrollment.code, /^[0-9A-Z]{4}-/);
    assert.equal(await isAdmin('second@example.com'), true);
    // The new administrator has no passkey yet: a reset of theirs has nobody else to wait for either.
    const resetNow = await reset(only, 'second@example.com');
    assert.equal(resetNow.statusCode, 200, resetNow.body);
    assert.deepEqual(await listApprovals(only), []);
    // Nobody resets their own passkeys, with or without a second person.
    assert.equal((await reset(only, 'only@example.com')).statusCode, 409);

    // Two administrators with passkeys: a reset of one by the other has no third to wait for.
    const other = await t.createAccount('other@example.com', { admin: true });
    assert.equal((await reset(other, 'only@example.com')).statusCode, 200);
  });

  it("resets a finance user's passkeys at once: one administrator gives that role and its codes", async () => {
    const asker = await t.createAccount('asker@example.com', { admin: true });
    await t.createAccount('third@example.com', { admin: true });
    await t.createAccount('money@example.com', { finance: true });

    const done = await reset(asker, 'money@example.com');
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.json<{ enrollment: { code: string } }>().enrollment.code, /^[0-9A-Z]{4}-/);
    assert.deepEqual(await listApprovals(asker), []);
    // Whoever is neither administrator nor on the list is refused as before, with nothing to approve.
    assert.equal((await reset(asker, 'nobody@example.com')).statusCode, 404);
  });

  it('lets requests run out, and be turned down or withdrawn without any change', async () => {
    const asker = await t.createAccount('asker@example.com', { admin: true });
    const colleague = await t.createAccount('colleague@example.com', { admin: true });
    await t.createAccount('candidate@example.com');

    const first = (await promote(asker, 'candidate@example.com')).json<{ approval: Approval }>().approval;
    await t.database.db.execute(sql`update admin_approvals set expires_at = now() - interval '1 second'`);
    assert.deepEqual(await listApprovals(colleague), [], 'a request that ran out is not listed');
    const late = await decide(colleague, first.id, 'approve');
    assert.equal(late.statusCode, 409);
    assert.equal(await isAdmin('candidate@example.com'), false);

    // Asked again once it ran out; this time turned down.
    const second = await promote(asker, 'candidate@example.com');
    assert.equal(second.statusCode, 202, second.body);
    const secondId = second.json<{ approval: Approval }>().approval.id;
    const rejected = await decide(colleague, secondId, 'reject');
    assert.equal(rejected.statusCode, 200, rejected.body);
    assert.equal(rejected.json<Approval>().decision, 'rejected');
    assert.equal((await decide(colleague, secondId, 'approve')).statusCode, 409);
    assert.equal(await isAdmin('candidate@example.com'), false);

    // Whoever asked may withdraw their own request.
    const third = (await promote(asker, 'candidate@example.com')).json<{ approval: Approval }>().approval;
    assert.equal((await decide(asker, third.id, 'reject')).statusCode, 200);
    assert.equal((await decide(colleague, 999_999, 'approve')).statusCode, 404);
    assert.equal(await isAdmin('candidate@example.com'), false);
  });
});
