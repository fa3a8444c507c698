import { accountCleanupListSchema, type AccountCleanupList } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { adminKeys } from './query-keys';

/** GET /account-cleanups: deleted users whose sign-in account the identity provider has not yet deleted. */
export async function getAccountCleanups(api: ApiClient, signal?: AbortSignal): Promise<AccountCleanupList> {
  const { data } = await api.request('/account-cleanups', { auth: true, schema: accountCleanupListSchema, signal });
  return data;
}

export const accountCleanupsQueryOptions = (api: ApiClient) =>
  queryOptions({
    queryKey: adminKeys.accountCleanups,
    queryFn: ({ signal }) => getAccountCleanups(api, signal),
    retry: false,
  });

export function useAccountCleanups() {
  const api = useApiClient();
  return useQuery(accountCleanupsQueryOptions(api));
}
