import type { ApiClient } from '@/lib/api-client';
import { serverMessageOf } from '../messages';
import { deleteUser } from './delete-user';

export interface BulkDeleteResult {
  deleted: string[];
  failed: { email: string; message: string }[];
  /** Deleted, but their sign-in account's deletion is still pending at the identity provider. */
  cleanupPending: string[];
}

/**
 * Deletes each address with the ordinary DELETE call, one after another: the server audits and refuses
 * each on its own (the last admin, an address already gone), and a failure does not stop the rest.
 */
export async function deleteUsersOneByOne(api: ApiClient, emails: readonly string[]): Promise<BulkDeleteResult> {
  const result: BulkDeleteResult = { deleted: [], failed: [], cleanupPending: [] };
  for (const email of emails) {
    try {
      const { accountCleanup } = await deleteUser(api, email);
      result.deleted.push(email);
      if (accountCleanup === 'pending') result.cleanupPending.push(email);
    } catch (error) {
      result.failed.push({ email, message: serverMessageOf(error) });
    }
  }
  return result;
}
