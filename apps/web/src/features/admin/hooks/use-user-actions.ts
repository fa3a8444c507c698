import { useRef, useState } from 'react';
import { useSetAdmin, useResendInvitation } from '../api/change-user';
import { useDeleteUser } from '../api/delete-user';
import {
  adminNotice,
  confirmDeleteMessage,
  deletedNotice,
  invitationNotice,
  roleChangeButton,
  roleChangeMessage,
  serverMessageOf,
} from '../messages';
import type { UserActions } from '../components/UserRow';
import type { ActionFeedback } from './use-action-feedback';

type Pending = { kind: 'delete'; email: string } | { kind: 'role'; email: string; admin: boolean };

/** What the confirmation modal shows; kept after it closes so its words do not change while it fades out. */
export interface ConfirmationView {
  open: boolean;
  message: string;
  yesLabel: string;
  yesVariant: 'danger' | 'primary';
}

/**
 * The row actions: Delete and role changes each after the spec's "Are you sure?", an invitation at once.
 * Success is told in a notice, failure in the error modal, after which focus goes back to the row.
 */
export function useUserActions(feedback: ActionFeedback) {
  const deleteUser = useDeleteUser();
  const setAdmin = useSetAdmin();
  const resend = useResendInvitation();
  const [pending, setPending] = useState<{ open: boolean; action: Pending | null }>({ open: false, action: null });
  const trigger = useRef<HTMLElement | null>(null);

  const ask = (action: Pending, from: HTMLElement) => {
    trigger.current = from;
    setPending({ open: true, action });
  };
  const rowActions: UserActions = {
    onDelete: (email, from) => ask({ kind: 'delete', email }, from),
    onSetAdmin: (email, admin, from) => ask({ kind: 'role', email, admin }, from),
    onResend: (email) =>
      resend.mutate(email, {
        onSuccess: () => feedback.succeed({ text: invitationNotice(email) }),
        onError: (error) => feedback.fail(serverMessageOf(error), error),
      }),
  };

  const confirm = async () => {
    const { action } = pending;
    setPending({ open: false, action });
    if (!action) return;
    try {
      if (action.kind === 'delete') {
        await deleteUser.mutateAsync(action.email);
        feedback.succeed({ text: deletedNotice(action.email) });
      } else {
        await setAdmin.mutateAsync(action);
        feedback.succeed({ text: adminNotice(action.email, action.admin) });
      }
    } catch (error) {
      feedback.fail(serverMessageOf(error), error, trigger.current);
    }
  };

  const { action } = pending;
  const confirmation: ConfirmationView = {
    open: pending.open,
    message: !action
      ? ''
      : action.kind === 'delete'
        ? confirmDeleteMessage(action.email)
        : roleChangeMessage(action.email, action.admin),
    yesLabel: action?.kind === 'role' ? roleChangeButton(action.admin) : 'Yes',
    yesVariant: action?.kind === 'role' && action.admin ? 'primary' : 'danger',
  };
  return {
    rowActions,
    confirmation,
    confirm: () => void confirm(),
    cancel: () => setPending({ open: false, action }),
    /** Back to the row's control once the confirmation has gone, unless its row went with it. */
    restoreFocus: () => {
      if (trigger.current?.isConnected) trigger.current.focus();
    },
  };
}
