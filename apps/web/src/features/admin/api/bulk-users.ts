import {
  bulkAddResponseSchema,
  bulkDeleteResponseSchema,
  type BulkAddResult,
  type BulkDeleteResult,
} from '@portal/contract';
import type { ApiClient } from '@/lib/api-client';

/**
 * POST /users/bulk-add: the server adds each address as the single add does, and answers one result each.
 * `finance` gives each address it adds the finance role too; addresses already on the list keep theirs.
 */
export async function bulkAddUsers(
  api: ApiClient,
  inputs: readonly string[],
  options: { finance?: boolean } = {},
): Promise<BulkAddResult[]> {
  const { data } = await api.request('/users/bulk-add', {
    method: 'POST',
    auth: true,
    json: options.finance ? { emails: inputs, finance: true } : { emails: inputs },
    schema: bulkAddResponseSchema,
  });
  return data.results;
}

/** POST /users/bulk-delete: the server deletes each address as the single delete does, one result each. */
export async function bulkDeleteUsers(api: ApiClient, inputs: readonly string[]): Promise<BulkDeleteResult[]> {
  const { data } = await api.request('/users/bulk-delete', {
    method: 'POST',
    auth: true,
    json: { emails: inputs },
    schema: bulkDeleteResponseSchema,
  });
  return data.results;
}
