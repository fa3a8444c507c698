import type { Approval, ApprovalDone } from '@portal/contract';
import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ConfirmModal } from '@/components/ConfirmModal';
import { useCurrentUser } from '@/lib/auth';
import { useApprovals, useDecideApproval } from '../api/approvals';
import type { ActionFeedback, Notice } from '../hooks/use-action-feedback';
import {
  ABOUT_YOU_APPROVAL_NOTE,
  adminNotice,
  APPROVE_TITLE,
  approveMessage,
  approvalDescription,
  approvalRejectedNotice,
  approvalsTitle,
  approvalUntil,
  approveLabel,
  enrollmentCodeDetails,
  newEnrollmentCodeNotice,
  OWN_APPROVAL_NOTE,
  passkeysResetNotice,
  rejectLabel,
  serverMessageOf,
  withdrawLabel,
} from '../messages';

/**
 * Promotions, passkey resets and new enrollment codes waiting for a second administrator, shown only while there are any. Another
 * administrator approves, after a confirmation (and is shown the enrollment code, in the notice above the
 * list), or rejects; whoever
 * asked is told it waits for someone else, and may withdraw it; whom it is about cannot decide it.
 */
export function PendingApprovals({ feedback }: { feedback: ActionFeedback }) {
  const approvals = useApprovals();
  const decide = useDecideApproval();
  const { email: currentEmail } = useCurrentUser();
  // The approval asked about, kept while the confirmation fades out so its words do not change.
  const [asked, setAsked] = useState<{ open: boolean; approval: Approval | null }>({ open: false, approval: null });
  const trigger = useRef<HTMLButtonElement | null>(null);
  const waiting = approvals.data;

  const run = async (approval: Approval, decision: 'approve' | 'reject', from: HTMLButtonElement | null) => {
    try {
      const done = await decide.mutateAsync({ id: approval.id, decision });
      feedback.succeed(noticeOf(approval, decision, done, currentEmail));
    } catch (error) {
      feedback.fail(serverMessageOf(error), error, from);
    }
  };
  const confirmation = (
    <ConfirmModal
      show={asked.open}
      title={APPROVE_TITLE}
      message={asked.approval ? approveMessage(asked.approval) : ''}
      yesLabel="Approve"
      yesVariant="primary"
      onNo={() => setAsked({ open: false, approval: asked.approval })}
      onYes={() => {
        setAsked({ open: false, approval: asked.approval });
        if (asked.approval) void run(asked.approval, 'approve', trigger.current);
      }}
      onExited={() => {
        if (trigger.current?.isConnected) trigger.current.focus();
      }}
    />
  );
  if (!waiting || waiting.length === 0) return confirmation;

  return (
    // A region, not an alert: it is there on every visit while anything waits, not news to interrupt with.
    <section className="alert alert-warning mb-2 pending-approvals" aria-labelledby="pending-approvals-title">
      <h2 className="h6 alert-heading" id="pending-approvals-title">
        {approvalsTitle(waiting.length)}
      </h2>
      <ul className="list-unstyled small mb-0">
        {waiting.map((approval) => {
          const own = approval.requestedBy === currentEmail;
          const aboutMe = approval.email === currentEmail;
          return (
            <li key={approval.id} className="d-flex flex-wrap align-items-center gap-2 py-1 text-break">
              <span className="flex-grow-1 min-w-0">
                {approvalDescription(approval)}, {approvalUntil(approval.expiresAt)}.{own && <> {OWN_APPROVAL_NOTE}</>}
                {!own && aboutMe && <> {ABOUT_YOU_APPROVAL_NOTE}</>}
              </span>
              {!own && !aboutMe && (
                <Button
                  size="sm"
                  variant="primary"
                  aria-label={approveLabel(approval.email)}
                  onClick={(event) => {
                    trigger.current = event.currentTarget;
                    setAsked({ open: true, approval });
                  }}
                >
                  Approve
                </Button>
              )}
              <Button
                size="sm"
                variant="outline-danger"
                aria-label={own ? withdrawLabel(approval.email) : rejectLabel(approval.email)}
                onClick={(event) => void run(approval, 'reject', event.currentTarget)}
              >
                {own ? 'Withdraw' : 'Reject'}
              </Button>
            </li>
          );
        })}
      </ul>
      {confirmation}
    </section>
  );
}

function noticeOf(
  approval: Approval,
  decision: 'approve' | 'reject',
  done: ApprovalDone,
  currentEmail: string,
): Notice {
  const { email } = approval;
  if (decision === 'reject') return { text: approvalRejectedNotice(email, approval.requestedBy === currentEmail) };
  const text =
    approval.kind === 'make-admin'
      ? adminNotice(email, true)
      : approval.kind === 'reset-passkeys'
        ? passkeysResetNotice(email)
        : newEnrollmentCodeNotice(email);
  return done.enrollment
    ? { text, details: enrollmentCodeDetails(email, done.enrollment), code: done.enrollment.code }
    : { text };
}
