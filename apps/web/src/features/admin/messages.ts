import { ApiError } from '@/lib/api-client';

/** Every sentence the admin screen shows an admin, kept together; the spec's are word for word. */

export const NO_PERMISSION_MESSAGE =
  'You do not have permissions to view this page. Please contact the website administrator.';

export const confirmDeleteMessage = (email: string) => `Are you sure you want to delete user ${email}`;

export const noUsersMessage = (search: string) => (search ? `No users match "${search}".` : 'No users yet.');

export const OWN_ACCOUNT_DELETE_REASON = 'You cannot delete your own account.';
export const BACK_TO_INVOICES = 'Back to the invoices';
export const addedNotice = (email: string) => `${email} was added.`;
export const deletedNotice = (email: string) => `${email} was deleted.`;
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
