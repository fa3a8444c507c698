import type {
  Approval,
  ApprovalDone,
  ApprovalKind,
  EnrollmentCodeIssued,
  EnrollmentCodeShown,
  PasskeysReset,
} from '@portal/contract';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { DomainError } from '../domain-error.ts';
import { HAS_PASSKEY_MESSAGE } from '../passkeys/passkey-ceremonies.ts';
import type { UserRow } from '../users/repository.ts';
import { managedByDirectoryMessage, notOnListMessage } from '../users/user-admin.ts';
import { approvalOf, type ApprovalRow, type ApprovalsRepository } from './approvals-repository.ts';

/** The changes a second administrator must approve, as counted for the alert on them. */
export type TrustChange = 'promotion' | 'passkey-reset';

export interface AdminApprovalsDeps {
  approvals: ApprovalsRepository;
  findUser(email: string): Promise<UserRow | undefined>;
  /** The user admin's role change: audited, under the last-admin lock. */
  setAdmin(input: { email: string; admin: true; actor: string; requestedBy?: string }): Promise<UserRow>;
  /** A code for someone just made an administrator, unless they still have a passkey from before. */
  codeForNewAdmin(input: { email: string; actor: string }): Promise<EnrollmentCodeIssued | undefined>;
  /** The recovery reset: ends the sessions, removes the passkeys, issues the code, audited. */
  resetPasskeys(input: { email: string; actor: string }): Promise<PasskeysReset>;
  /**
   * A fresh code for someone with an administrator's or the finance role and no passkey yet (the earlier one
   * stops working), refused for anyone else; sessions and passkeys untouched, audited.
   */
  issueEnrollmentCode(input: { email: string; actor: string }): Promise<EnrollmentCodeIssued>;
  /** How many passkeys the address has set up. */
  passkeyCount(email: string): Promise<number>;
  audit: Pick<AuditTrail, 'bestEffort'>;
  /** Counts a promotion or reset that took effect (the alert on them and an acknowledgement close together). */
  onChanged(change: TrustChange): void;
  log: { error(details: object, message: string): void };
}

export const ALREADY_WAITING_MESSAGE = (email: string) =>
  `A request about ${email} already waits for a second administrator. Ask another administrator to approve it.`;
export const OWN_REQUEST_MESSAGE = 'You asked for this change yourself: another administrator must approve it.';
export const ABOUT_YOU_MESSAGE = 'This request is about you: another administrator must decide it.';
export const NO_APPROVAL_MESSAGE = 'There is no such request waiting for approval.';
export const DECIDED_OR_EXPIRED_MESSAGE =
  'This request was already decided or has run out (requests wait 24 hours). Ask for the change again if it is still needed.';
export const NOT_AN_ADMIN_MESSAGE = (email: string) => `${email} is not an administrator.`;

const WHAT: Record<ApprovalKind, string> = {
  'make-admin': 'make administrator',
  'reset-passkeys': 'reset passkeys',
  'enrollment-code': 'new enrollment code',
};

/**
 * Four eyes that are two people: making someone an administrator and resetting an administrator's passkeys
 * both hand out an enrollment code, so where another administrator with a passkey could look (anyone but
 * whoever asks and whom it is about), the change waits for them. The approver makes the change and alone
 * sees the code. Where nobody else could, the change is made at once, as for the first administrators.
 */
export function createAdminApprovals(deps: AdminApprovalsDeps) {
  const { approvals } = deps;

  const audited = (
    actor: string,
    action: 'users.approval-requested' | 'users.approval-approved' | 'users.approval-rejected',
    row: ApprovalRow,
    detail?: string,
  ) =>
    deps.audit.bestEffort({
      actor,
      action,
      target: row.email,
      outcome: 'ok',
      detail: `${WHAT[row.kind]} (request ${row.id}${actor === row.requestedBy ? '' : `, asked by ${row.requestedBy}`})${detail ? `: ${detail}` : ''}`,
    });

  const refused = async (
    actor: string,
    action: 'users.approval-requested' | 'users.approval-approved' | 'users.approval-rejected',
    target: string,
    error: DomainError,
  ): Promise<never> => {
    await deps.audit.bestEffort({ actor, action, target, outcome: 'refused', detail: error.message });
    throw error;
  };

  /** Whether someone other than whoever asks and whom it is about could approve: then one must. */
  const needsSecondPerson = async (actor: string, email: string) =>
    (await approvals.countSecondPersons([actor, email])) > 0;

  async function requestApproval(kind: ApprovalKind, email: string, actor: string): Promise<Approval> {
    const row = await approvals.request({ kind, email, requestedBy: actor });
    if (!row)
      return refused(
        actor,
        'users.approval-requested',
        email,
        new DomainError('conflict', ALREADY_WAITING_MESSAGE(email)),
      );
    await audited(actor, 'users.approval-requested', row, 'waits for a second administrator');
    return approvalOf(row);
  }

  /** The row a request is about, refused as the change itself would refuse it, before anyone is asked. */
  async function targetOf(kind: ApprovalKind, email: string, actor: string): Promise<UserRow> {
    const row = await deps.findUser(email);
    if (!row)
      return refused(actor, 'users.approval-requested', email, new DomainError('not-found', notOnListMessage(email)));
    if (kind === 'make-admin' && row.managedBy)
      return refused(
        actor,
        'users.approval-requested',
        email,
        new DomainError('managed-by-directory', managedByDirectoryMessage(email)),
      );
    if (kind !== 'make-admin' && !row.admin)
      return refused(
        actor,
        'users.approval-requested',
        email,
        new DomainError('conflict', NOT_AN_ADMIN_MESSAGE(email)),
      );
    if (kind === 'enrollment-code' && (await deps.passkeyCount(email)) > 0)
      return refused(actor, 'users.approval-requested', email, new DomainError('conflict', HAS_PASSKEY_MESSAGE(email)));
    return row;
  }

  async function promoteNow(email: string, actor: string, requestedBy?: string) {
    const row = await deps.setAdmin({ email, admin: true, actor, ...(requestedBy ? { requestedBy } : {}) });
    deps.onChanged('promotion');
    return { row, enrollment: await deps.codeForNewAdmin({ email, actor }) };
  }

  // Not counted for the alert on trust changes: nothing about the account changes but which code works.
  const codeNow = (email: string, actor: string) => deps.issueEnrollmentCode({ email, actor });

  async function resetNow(email: string, actor: string) {
    const reset = await deps.resetPasskeys({ email, actor });
    deps.onChanged('passkey-reset');
    return reset;
  }

  return {
    /**
     * PATCH /users/:email { admin: true }: made at once (with the enrollment code for whoever did it) where
     * nobody else could approve; otherwise a request for a second administrator, and no code. Someone who is
     * an administrator already stays one, and no code is issued for them that way.
     */
    async promote(input: {
      email: string;
      actor: string;
    }): Promise<{ done: UserRow; enrollment: EnrollmentCodeIssued | undefined } | { pending: Approval; row: UserRow }> {
      const { email, actor } = input;
      if (!(await needsSecondPerson(actor, email))) {
        const { row, enrollment } = await promoteNow(email, actor);
        return { done: row, enrollment };
      }
      const row = await targetOf('make-admin', email, actor);
      if (row.admin) return { done: row, enrollment: undefined };
      return { pending: await requestApproval('make-admin', email, actor), row };
    },

    /**
     * DELETE /users/:email/passkeys: an administrator's made at once where nobody else could approve, otherwise
     * a request; a finance user's by one administrator, as their role and first code are given.
     */
    async resetPasskeys(input: { email: string; actor: string }): Promise<PasskeysReset | { pending: Approval }> {
      const { email, actor } = input;
      // Refused before anything is counted: nobody resets their own passkeys, even with a second person.
      if (email === actor) return resetNow(email, actor);
      const row = await deps.findUser(email);
      if (!row?.admin || !(await needsSecondPerson(actor, email))) return resetNow(email, actor);
      await targetOf('reset-passkeys', email, actor);
      return { pending: await requestApproval('reset-passkeys', email, actor) };
    },

    /**
     * POST /users/:email/enrollment-code: a fresh code for someone who has not set up a passkey yet, their
     * sessions kept. Like a reset it hands out a code for an administrator's account, so for an administrator
     * it waits for a second one wherever one could look; a finance user's is given by one administrator, as
     * the finance role and its first code are.
     */
    async newEnrollmentCode(input: {
      email: string;
      actor: string;
    }): Promise<EnrollmentCodeShown | { pending: Approval }> {
      const { email, actor } = input;
      const row = await deps.findUser(email);
      if (email === actor || !row?.admin || !(await needsSecondPerson(actor, email)))
        return { email, enrollment: await codeNow(email, actor) };
      await targetOf('enrollment-code', email, actor);
      return { pending: await requestApproval('enrollment-code', email, actor) };
    },

    async list(): Promise<Approval[]> {
      return (await approvals.listPending()).map(approvalOf);
    },

    /**
     * A second administrator approves, and makes the change as themselves: the enrollment code is theirs to
     * hand over. Not whoever asked, not whom it is about. A change that then cannot be made leaves the
     * request waiting.
     */
    async approve(input: { id: number; actor: string }): Promise<ApprovalDone> {
      const { id, actor } = input;
      const found = await approvals.find(id);
      if (!found)
        return refused(actor, 'users.approval-approved', String(id), new DomainError('not-found', NO_APPROVAL_MESSAGE));
      if (found.requestedBy === actor)
        return refused(
          actor,
          'users.approval-approved',
          found.email,
          new DomainError('forbidden', OWN_REQUEST_MESSAGE, 'own request'),
        );
      if (found.email === actor)
        return refused(
          actor,
          'users.approval-approved',
          found.email,
          new DomainError('forbidden', ABOUT_YOU_MESSAGE, 'about the approver'),
        );
      const claimed = await approvals.decide(id, actor, 'approved');
      if (!claimed)
        return refused(
          actor,
          'users.approval-approved',
          found.email,
          new DomainError('conflict', DECIDED_OR_EXPIRED_MESSAGE),
        );
      let enrollment: EnrollmentCodeIssued | undefined;
      try {
        if (claimed.kind === 'make-admin')
          enrollment = (await promoteNow(claimed.email, actor, claimed.requestedBy)).enrollment;
        else if (claimed.kind === 'reset-passkeys') enrollment = (await resetNow(claimed.email, actor)).enrollment;
        else enrollment = await codeNow(claimed.email, actor);
      } catch (error) {
        await approvals
          .undecide(id)
          .catch((undoError: unknown) =>
            deps.log.error({ err: undoError, approval: id }, 'could not put a request that failed back to waiting'),
          );
        throw error;
      }
      await audited(actor, 'users.approval-approved', claimed);
      return { approval: approvalOf(claimed), ...(enrollment ? { enrollment } : {}) };
    },

    /** Any administrator may turn a request down, whoever asked included (they withdraw it); nothing changes. */
    async reject(input: { id: number; actor: string }): Promise<Approval> {
      const { id, actor } = input;
      const decided = await approvals.decide(id, actor, 'rejected');
      if (!decided) {
        const found = await approvals.find(id);
        const error = found
          ? new DomainError('conflict', DECIDED_OR_EXPIRED_MESSAGE)
          : new DomainError('not-found', NO_APPROVAL_MESSAGE);
        return refused(actor, 'users.approval-rejected', found?.email ?? String(id), error);
      }
      await audited(actor, 'users.approval-rejected', decided);
      return approvalOf(decided);
    },
  };
}

export type AdminApprovals = ReturnType<typeof createAdminApprovals>;
