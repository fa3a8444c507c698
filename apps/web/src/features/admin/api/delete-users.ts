import type { ApiClient } from '@/lib/api-client';
import { serverMessageOf } from '../messages';
import { deleteUser } from './delete-user';

export interface BulkDeleteResult {
  deleted: string[];
  failed: { email: string; message: string }[];
}

/**
 * Deletes each address with the ordinary DELETE call, one after another: the server audits and refuses
 * each on its own (the last admin, an address already gone), and a failure does not stop the rest.
 */
export async function deleteUsersOneByOne(api: ApiClient, emails: readonly string[]): Promise<BulkDeleteResult> {
  const result: BulkDeleteResult = { deleted: [], failed: [] };
  for (const email of emails) {
    try {
      await deleteUser(api, email);
      result.deleted.push(email);
    } catch (error) {
      result.failed.push({ email, message: serverMessageOf(error) });
    }
  }
  return result;
}
