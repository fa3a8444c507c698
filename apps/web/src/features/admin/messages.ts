import type { ApprovalKind } from '@portal/contract';
import { ApiError } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format-date';
import type { StepUpTexts } from '@/components/step-up/step-up-texts';

/** Every sentence the admin screen shows an admin, kept together; the spec's are word for word. */

export const NO_PERMISSION_MESSAGE =
  'You do not have permissions to view this page. Please contact the website administrator.';

export const confirmDeleteMessage = (email: string) => `Are you sure you want to delete user ${email}`;

export const noUsersMessage = (search: string) => (search ? `No users match "${search}".` : 'No users yet.');

export const OWN_ACCOUNT_DELETE_REASON = 'You cannot delete your own account.';
/** Why the only administrator's "Remove admin" is disabled, said under it in the row's menu. */
export const LAST_ADMIN_ROLE_REASON = 'You are the only admin. Make someone else an admin first.';
export const BACK_TO_INVOICES = 'Back to the invoices';
export const addedNotice = (email: string) => `${email} was added.`;
export const deletedNotice = (email: string) => `${email} was deleted.`;
export const deletedCleanupPendingNotice = (email: string) =>
  `${email} was deleted and can no longer sign in. The sign-in service did not answer, so their sign-in account ` +
  'will be deleted automatically once it does (see "Clean-ups pending" in the audit log).';
export const cleanupPendingDetail = (email: string) =>
  `${email}: deleted; their sign-in account will be deleted once the sign-in service answers.`;
export const takeOverLabel = (email: string) =>
  `Take over the existing account: delete it (its password and sessions end) and make a new one for ${email}`;
export const TAKE_OVER_HINT =
  'This address already has a sign-in account that this portal did not make. Only take it over if it is not ' +
  "someone else's account that must be kept.";
export const cleanupsPendingTitle = (count: number) =>
  count === 1 ? '1 clean-up pending' : `${count} clean-ups pending`;
export const CLEANUPS_PENDING_INTRO =
  'These people were deleted and cannot sign in. Their sign-in accounts are not deleted yet because the sign-in ' +
  'service did not answer; the portal keeps trying until it does.';
const users = (count: number) => (count === 1 ? '1 user' : `${count} users`);
export const bulkDeleteTitle = (count: number) => `Delete ${users(count)}?`;
/** Names the addresses while the list reads at a glance; beyond that, the count says it. */
const NAMED_IN_CONFIRMATION = 5;
export const bulkDeleteMessage = (emails: readonly string[]) =>
  `${emails.length === 1 ? 'This user loses' : `These ${emails.length} users lose`} access to the portal` +
  (emails.length <= NAMED_IN_CONFIRMATION ? `: ${emails.join(', ')}.` : '.');
export const bulkDeleteButton = (count: number) => `Delete ${users(count)}`;
export const selectedCount = (count: number) => `${count} selected`;
export const adminNotice = (email: string, admin: boolean) =>
  admin ? `${email} is now an administrator.` : `${email} is no longer an administrator.`;
export const invitationNotice = (email: string) => `A new invitation (password mail) was sent to ${email}.`;

/** The role change's confirmation, under the spec's "Are you sure?" title. */
export const roleChangeMessage = (email: string, admin: boolean) =>
  admin
    ? `Make ${email} an administrator? They will be able to add and delete users and read the audit log.`
    : `Remove the administrator role from ${email}? They keep access to invoices.`;
export const roleChangeButton = (admin: boolean) => (admin ? 'Make admin' : 'Remove admin');
export const financeNotice = (email: string, finance: boolean) =>
  finance ? `${email} now has the finance role.` : `${email} no longer has the finance role.`;
export const financeChangeMessage = (email: string, finance: boolean) =>
  finance
    ? `Give ${email} the finance role? They will be able to search every invoice and download many at once.`
    : `Remove the finance role from ${email}? They keep access to the invoices whose link they are sent.`;
export const financeChangeButton = (finance: boolean) => (finance ? 'Give finance role' : 'Remove finance role');
export const rowMenuLabel = (email: string) => `More actions for ${email}`;

const count = new Intl.NumberFormat('en-GB');
/** "61 added · 1 already on the list · 1 invalid": the first part always, the others when they happened. */
const tally = (parts: [number, string][]) =>
  parts
    .filter(([n], index) => index === 0 || n > 0)
    .map(([n, label]) => `${count.format(n)} ${label}`)
    .join(' · ');
export const bulkAddSummary = (counts: Record<'added' | 'exists' | 'invalid' | 'failed' | 'skipped', number>) =>
  tally([
    [counts.added, 'added'],
    [counts.exists, 'already on the list'],
    [counts.invalid, 'invalid'],
    [counts.failed, 'failed'],
    [counts.skipped, 'skipped'],
  ]);
export const bulkDeleteSummary = (counts: Record<'deleted' | 'gone' | 'refused' | 'failed' | 'skipped', number>) =>
  tally([
    [counts.deleted, 'deleted'],
    [counts.gone, 'no longer on the list'],
    [counts.refused, 'refused'],
    [counts.failed, 'failed'],
    [counts.skipped, 'skipped'],
  ]);
export const bulkProgress = (done: number, total: number) =>
  `${count.format(done)} of ${count.format(total)} addresses done`;
export const addressesFound = (found: number, max: number) =>
  found > max
    ? `${count.format(found)} addresses found: at most ${count.format(max)} at a time.`
    : `${count.format(found)} ${found === 1 ? 'address' : 'addresses'} found.`;
export const stoppingMessage = (skipped: number) =>
  `Stopped. ${count.format(skipped)} not sent ${skipped === 1 ? 'is' : 'are'} skipped; finishing the addresses already sent…`;
export const haltedMessage = (reason: string) => `The run stopped: ${reason}`;
export const NO_ANSWER_FOR_ADDRESS =
  'The server did not answer for this address, so it may or may not have been done. Search the list for it.';
export const deleteFailure = (email: string, message: string) => `${email}: ${message}`;

export const NO_AUDIT_ENTRIES_MESSAGE = 'Nothing recorded yet.';

export const fileUnreadableMessage = (fileName: string) => `Could not read ${fileName}.`;

const UNREADABLE_ANSWER_MESSAGE = 'The server sent an answer the portal did not understand.';

/**
 * The response's status text, as the spec asks for list and register failures. HTTP/2 carries no status
 * text, so the server's message (or a generic line) stands in rather than an empty modal.
 */
export function statusTextOf(error: unknown): string {
  if (error instanceof ApiError) return error.statusText || error.serverMessage || error.message;
  return UNREADABLE_ANSWER_MESSAGE;
}

/** The `message` of the response body, as the spec asks for create failures, else the status text. */
export function serverMessageOf(error: unknown): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return statusTextOf(error);
}

/** The admin page's words on the passkey cards; the rest of the cards' words are shared. */
export const ADMIN_STEP_UP_TEXTS: StepUpTexts = {
  setUpWhy:
    'Administrators confirm who they are with a passkey as well as their password: the fingerprint, face or screen lock of this device, or a security key.',
  codeHint:
    'The one-time code from the administrator who made you an administrator or reset your passkeys (XXXX-XXXX-XXXX-XXXX).',
  confirmHow: (length) =>
    `Use your passkey to open the admin page. It stays open for ${length} at a time; then the portal asks again.`,
  lostPasskey: 'Lost your passkey? Another administrator can reset it from the user list.',
};

export const END_SESSIONS_TITLE = 'End sessions?';
export const endSessionsMessage = (email: string) =>
  `${email} is signed out on every device and browser, and must sign in again to continue.`;
export const END_SESSIONS_BUTTON = 'End sessions';
export const sessionsEndedNotice = (email: string) => `${email} was signed out everywhere.`;
export const RESET_PASSKEYS_TITLE = 'Reset passkeys?';
export const resetPasskeysMessage = (email: string) =>
  `${email} is signed out everywhere, can no longer confirm with their passkeys, and sets up a new one with the enrollment code you are shown next. Do this only once you are sure it is them who asked.`;
export const RESET_PASSKEYS_BUTTON = 'Reset passkeys';
export const passkeysResetNotice = (email: string) =>
  `The passkeys of ${email} were reset and they were signed out everywhere.`;
/** The enrollment code, shown once, under the notice of the promotion or reset that issued it. */
export const enrollmentCodeDetails = (email: string, enrollment: { code: string; expiresAt: string }) => [
  `Enrollment code for ${email}'s first passkey: ${enrollment.code}`,
  `Give it to them in person or by phone, not by e-mail. It works once, until ${formatDateTime(enrollment.expiresAt)}, and is not shown again.`,
];
/** The row menu's way to a new code for someone who has not set up a passkey yet, without signing them out. */
export const NEW_ENROLLMENT_CODE_ITEM = 'Show a new enrollment code';
export const NEW_ENROLLMENT_CODE_TITLE = 'New enrollment code';
export const newEnrollmentCodeLead = (email: string) => `Enrollment code for ${email}'s first passkey:`;
export const newEnrollmentCodeHandOver = (expiresAt: string) =>
  `Give it to them in person or by phone, not by e-mail. It works once, until ${formatDateTime(expiresAt)}, and is not shown again.`;
export const NEW_ENROLLMENT_CODE_KEPT =
  'The code they were given before no longer works. They stay signed in, and nothing else of theirs changes.';
export const newEnrollmentCodeNotice = (email: string) =>
  `A new enrollment code for ${email} is ready; the one before no longer works.`;
/** An administrator's passkeys on their row. */
export const passkeyCount = (count: number) =>
  count === 0 ? 'No passkey yet' : count === 1 ? '1 passkey' : `${count} passkeys`;
export const passkeyDates = (passkey: { createdAt: string; lastUsedAt: string | null }) =>
  `set up ${formatDate(passkey.createdAt)}, ${
    passkey.lastUsedAt ? `last used ${formatDateTime(passkey.lastUsedAt)}` : 'never used since'
  }`;

/** The row of someone the company directory provisions (SCIM): changed there, not here. */
export const DIRECTORY_TITLE =
  'Kept by your company directory (SCIM provisioning): add, remove or change this person in the directory.';
/**
 * Why Delete is disabled on a row the company directory keeps: the server refuses it (managed-by-directory), so
 * the row says so before the spec's "Are you sure?" rather than after it.
 */
export const DIRECTORY_DELETE_REASON = 'Kept by your company directory: remove them there.';
/** Why the role items of such a row's menu are disabled: the directory's groups decide its roles. */
export const DIRECTORY_ROLE_REASON = 'Their roles come from your company directory: change them there.';
/** The directory deactivated this person: listed, and refused at sign-in. */
export const DEACTIVATED_TITLE = 'Deactivated in your company directory: cannot sign in';

/** Promotions and passkey resets that wait for a second administrator. */
export const approvalRequestedNotice = (email: string, kind: ApprovalKind) => {
  switch (kind) {
    case 'make-admin':
      return `Making ${email} an administrator waits for a second administrator's approval. Nothing has changed yet.`;
    case 'reset-passkeys':
      return `Resetting the passkeys of ${email} waits for a second administrator's approval. Nothing has changed yet.`;
    case 'enrollment-code':
      return `A new enrollment code for ${email} waits for a second administrator's approval. Nothing has changed yet.`;
  }
};
export const APPROVAL_REQUESTED_DETAIL =
  'Another administrator approves it under "Waiting for a second administrator" within 24 hours. They, not you, are shown the enrollment code, and hand it over.';
export const approvalsTitle = (count: number) =>
  count === 1
    ? 'Waiting for a second administrator: 1 request'
    : `Waiting for a second administrator: ${count} requests`;
export const approvalDescription = (approval: { kind: ApprovalKind; email: string; requestedBy: string }) => {
  switch (approval.kind) {
    case 'make-admin':
      return `${approval.requestedBy} asks to make ${approval.email} an administrator`;
    case 'reset-passkeys':
      return `${approval.requestedBy} asks to reset the passkeys of ${approval.email}`;
    case 'enrollment-code':
      return `${approval.requestedBy} asks for a new enrollment code for ${approval.email}`;
  }
};
export const approvalUntil = (expiresAt: string) => `until ${formatDateTime(expiresAt)}`;
export const OWN_APPROVAL_NOTE = 'You asked for this: it waits for another administrator.';
export const ABOUT_YOU_APPROVAL_NOTE = 'This is about you: another administrator decides it.';
export const approveLabel = (email: string) => `Approve the request about ${email}`;
export const rejectLabel = (email: string) => `Reject the request about ${email}`;
export const withdrawLabel = (email: string) => `Withdraw your request about ${email}`;
export const approvalRejectedNotice = (email: string, own: boolean) =>
  own
    ? `You withdrew your request about ${email}. Nothing was changed.`
    : `You turned down the request about ${email}. Nothing was changed.`;
export const APPROVE_TITLE = 'Approve?';
export const approveMessage = (approval: { kind: ApprovalKind; email: string; requestedBy: string }) => {
  switch (approval.kind) {
    case 'make-admin':
      return `Make ${approval.email} an administrator, as ${approval.requestedBy} asked? You are shown their enrollment code next: check with ${approval.email} that they expect it, and hand it over in person or by phone.`;
    case 'reset-passkeys':
      return `Reset the passkeys of ${approval.email}, as ${approval.requestedBy} asked? They are signed out everywhere, and you are shown their new enrollment code next. Do this only once you are sure it is them who asked.`;
    case 'enrollment-code':
      return `Give ${approval.email} a new enrollment code, as ${approval.requestedBy} asked? The code they have stops working; they stay signed in. You are shown the new code next: check with ${approval.email} that they expect it, and hand it over in person or by phone.`;
  }
};
/** An address a bulk add left out, and why, in the notice above the list. */
export const notAddedLine = (address: string, reason: string | undefined) =>
  `Not added: ${address}${reason ? ` (${reason})` : ''}`;
export const moreNotAdded = (more: number) => `and ${more} more`;
