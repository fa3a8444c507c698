import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAccount } from './account';
import { useApiClient, type ApiClient } from './api-client';
import type { QueryConfig } from './react-query';

/** The signed-in user's own account, as the header and the admin page share it: one key, one fetcher. */
export const accountQueryOptions = (api: ApiClient, email: string) =>
  queryOptions({
    queryKey: ['account', email] as const,
    queryFn: async () => {
      try {
        return await getAccount(api, email, { auth: true });
      } catch (error) {
        // The spec: the lookup failing is logged for developers and shows nothing more to the user.
        console.warn('Account lookup failed', error);
        throw error;
      }
    },
    retry: false,
  });

export function useAccount(email: string, queryConfig: QueryConfig<typeof accountQueryOptions> = {}) {
  const api = useApiClient();
  return useQuery({ ...accountQueryOptions(api, email), ...queryConfig });
}
