import { allowedUserListSchema, type AllowedUser } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { pageParams, totalOf } from './paging';
import { adminKeys } from './query-keys';

export interface UsersPage {
  users: AllowedUser[];
  total: number;
}

/** GET /users with search and paging, so the screen never downloads the whole list. */
export async function getUsersPage(
  api: ApiClient,
  query: { search: string; page: number },
  signal?: AbortSignal,
): Promise<UsersPage> {
  const params = pageParams(query.page);
  if (query.search) params.set('search', query.search);
  const { data, headers } = await api.request(`/users?${params}`, {
    auth: true,
    schema: allowedUserListSchema,
    signal,
  });
  return { users: data, total: totalOf(headers, data.length) };
}

export const usersPageQueryOptions = (api: ApiClient, query: { search: string; page: number }) =>
  queryOptions({
    queryKey: adminKeys.usersPage(query.search, query.page),
    queryFn: ({ signal }) => getUsersPage(api, query, signal),
    // Paging and searching keep the rows on screen until the next ones arrive, instead of a blank table.
    placeholderData: keepPreviousData,
    retry: false,
  });

export function useUsersPage(query: { search: string; page: number }) {
  const api = useApiClient();
  return useQuery(usersPageQueryOptions(api, query));
}
