import type { ApprovalKind } from '@portal/contract';
import { useRef, useState } from 'react';
import { useSetAdmin, useSetFinance, useResendInvitation } from '../api/change-user';
import { useDeleteUser } from '../api/delete-user';
import { useEndSessions } from '../api/end-sessions';
import { useNewEnrollmentCode, useResetPasskeys } from '../api/passkeys';
import type { ShownCode } from '../components/EnrollmentCodeDialog';
import {
  adminNotice,
  APPROVAL_REQUESTED_DETAIL,
  approvalRequestedNotice,
  financeChangeButton,
  financeChangeMessage,
  financeNotice,
  confirmDeleteMessage,
  enrollmentCodeDetails,
  deletedCleanupPendingNotice,
  deletedNotice,
  END_SESSIONS_BUTTON,
  END_SESSIONS_TITLE,
  endSessionsMessage,
  invitationNotice,
  passkeysResetNotice,
  RESET_PASSKEYS_BUTTON,
  RESET_PASSKEYS_TITLE,
  resetPasskeysMessage,
  roleChangeButton,
  roleChangeMessage,
  serverMessageOf,
  sessionsEndedNotice,
} from '../messages';
import type { UserActions } from '../components/user-row-actions';
import type { ActionFeedback, Notice } from './use-action-feedback';

/** A promotion or reset that waits for a second administrator: nothing changed, no code for whoever asked. */
const waitsForApproval = (email: string, kind: ApprovalKind): Notice => ({
  text: approvalRequestedNotice(email, kind),
  details: [APPROVAL_REQUESTED_DETAIL],
});

type Pending =
  | { kind: 'delete'; email: string }
  | { kind: 'role'; email: string; admin: boolean }
  | { kind: 'finance'; email: string; finance: boolean }
  | { kind: 'end-sessions'; email: string }
  | { kind: 'reset-passkeys'; email: string };

/** What the confirmation modal shows; kept after it closes so its words do not change while it fades out. */
export interface ConfirmationView {
  open: boolean;
  title?: string;
  message: string;
  yesLabel: string;
  yesVariant: 'danger' | 'primary';
}

function confirmationOf(action: Pending | null): Omit<ConfirmationView, 'open'> {
  if (!action) return { message: '', yesLabel: 'Yes', yesVariant: 'danger' };
  switch (action.kind) {
    case 'delete':
      return { message: confirmDeleteMessage(action.email), yesLabel: 'Yes', yesVariant: 'danger' };
    case 'role':
      return {
        message: roleChangeMessage(action.email, action.admin),
        yesLabel: roleChangeButton(action.admin),
        yesVariant: action.admin ? 'primary' : 'danger',
      };
    case 'finance':
      return {
        message: financeChangeMessage(action.email, action.finance),
        yesLabel: financeChangeButton(action.finance),
        yesVariant: action.finance ? 'primary' : 'danger',
      };
    case 'end-sessions':
      return {
        title: END_SESSIONS_TITLE,
        message: endSessionsMessage(action.email),
        yesLabel: END_SESSIONS_BUTTON,
        yesVariant: 'danger',
      };
    case 'reset-passkeys':
      return {
        title: RESET_PASSKEYS_TITLE,
        message: resetPasskeysMessage(action.email),
        yesLabel: RESET_PASSKEYS_BUTTON,
        yesVariant: 'danger',
      };
  }
}

/**
 * The row actions: Delete, role changes, ending someone's sessions and resetting an administrator's
 * passkeys each after a confirmation, an invitation at once. Success is told in a notice, failure in the
 * error modal, after which focus goes back to the row.
 */
export function useUserActions(feedback: ActionFeedback) {
  const deleteUser = useDeleteUser();
  const setAdmin = useSetAdmin();
  const setFinance = useSetFinance();
  const resend = useResendInvitation();
  const endSessions = useEndSessions();
  const resetPasskeys = useResetPasskeys();
  const newEnrollmentCode = useNewEnrollmentCode();
  // A fresh enrollment code, shown in its dialog until closed; kept while the dialog fades out.
  const [code, setCode] = useState<{ open: boolean; shown: ShownCode | null }>({ open: false, shown: null });
  const [pending, setPending] = useState<{ open: boolean; action: Pending | null }>({ open: false, action: null });
  const trigger = useRef<HTMLElement | null>(null);

  const ask = (action: Pending, from: HTMLElement) => {
    trigger.current = from;
    setPending({ open: true, action });
  };
  const rowActions: UserActions = {
    onDelete: (email, from) => ask({ kind: 'delete', email }, from),
    onSetAdmin: (email, admin, from) => ask({ kind: 'role', email, admin }, from),
    onSetFinance: (email, finance, from) => ask({ kind: 'finance', email, finance }, from),
    onEndSessions: (email, from) => ask({ kind: 'end-sessions', email }, from),
    onResetPasskeys: (email, from) => ask({ kind: 'reset-passkeys', email }, from),
    // Nothing to confirm: it takes nothing away (the code before was not used), and signs nobody out.
    onNewEnrollmentCode: (email, from) => {
      trigger.current = from;
      newEnrollmentCode.mutate(email, {
        onSuccess: (issued) => {
          if ('approval' in issued) feedback.succeed(waitsForApproval(email, 'enrollment-code'));
          else setCode({ open: true, shown: issued });
        },
        onError: (error) => feedback.fail(serverMessageOf(error), error, from),
      });
    },
    onResend: (email) =>
      resend.mutate(email, {
        onSuccess: () => feedback.succeed({ text: invitationNotice(email) }),
        onError: (error) => feedback.fail(serverMessageOf(error), error),
      }),
  };

  // A promotion, a finance grant or a reset made at once issues the enrollment code the person's first passkey
  // needs: shown here, once. One that waits for a second administrator says so, and the approver is shown the code.
  const run = async (action: Pending): Promise<Notice> => {
    switch (action.kind) {
      case 'delete': {
        const { accountCleanup } = await deleteUser.mutateAsync(action.email);
        return {
          text: accountCleanup === 'pending' ? deletedCleanupPendingNotice(action.email) : deletedNotice(action.email),
        };
      }
      case 'role': {
        const changed = await setAdmin.mutateAsync(action);
        if ('approval' in changed) return waitsForApproval(action.email, 'make-admin');
        const text = adminNotice(action.email, action.admin);
        const { enrollment } = changed;
        return enrollment
          ? { text, details: enrollmentCodeDetails(action.email, enrollment), code: enrollment.code }
          : { text };
      }
      case 'finance': {
        // The finance role needs a passkey too: its grant issues the code, as a promotion does.
        const { enrollment } = await setFinance.mutateAsync(action);
        const text = financeNotice(action.email, action.finance);
        return enrollment
          ? { text, details: enrollmentCodeDetails(action.email, enrollment), code: enrollment.code }
          : { text };
      }
      case 'end-sessions':
        await endSessions.mutateAsync(action.email);
        return { text: sessionsEndedNotice(action.email) };
      case 'reset-passkeys': {
        const reset = await resetPasskeys.mutateAsync(action.email);
        if ('approval' in reset) return waitsForApproval(action.email, 'reset-passkeys');
        return {
          text: passkeysResetNotice(action.email),
          details: enrollmentCodeDetails(action.email, reset.enrollment),
          code: reset.enrollment.code,
        };
      }
    }
  };

  const confirm = async () => {
    const { action } = pending;
    setPending({ open: false, action });
    if (!action) return;
    try {
      feedback.succeed(await run(action));
    } catch (error) {
      feedback.fail(serverMessageOf(error), error, trigger.current);
    }
  };

  const confirmation: ConfirmationView = { open: pending.open, ...confirmationOf(pending.action) };
  return {
    rowActions,
    confirmation,
    confirm: () => void confirm(),
    cancel: () => setPending({ open: false, action: pending.action }),
    /** The fresh enrollment code's dialog. */
    code: {
      ...code,
      close: () => setCode({ open: false, shown: code.shown }),
    },
    /** Back to the row's control once the confirmation has gone, unless its row went with it. */
    restoreFocus: () => {
      if (trigger.current?.isConnected) trigger.current.focus();
    },
  };
}
