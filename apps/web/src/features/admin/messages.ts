import { ApiError } from '@/lib/api-client';

/** Every sentence the admin screen shows an admin, kept together; the spec's are word for word. */

export const NO_PERMISSION_MESSAGE =
  'You do not have permissions to view this page. Please contact the website administrator.';

export const confirmDeleteMessage = (email: string) => `Are you sure you want to delete user ${email}`;

export const noUsersMessage = (search: string) => (search ? `No users match "${search}".` : 'No users yet.');

export const OWN_ACCOUNT_DELETE_REASON = 'You cannot delete your own account.';
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
export const bulkDeletedNotice = (deleted: number, failed: number) =>
  `${users(deleted)} deleted` + (failed > 0 ? `, ${failed} could not be deleted:` : '.');
export const deleteFailure = (email: string, message: string) => `${email}: ${message}`;
export const adminNotice = (email: string, admin: boolean) =>
  admin ? `${email} is now an administrator.` : `${email} is no longer an administrator.`;
export const invitationNotice = (email: string) => `A new invitation (password mail) was sent to ${email}.`;

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
