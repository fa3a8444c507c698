import { allowedUserListSchema, type AllowedUser, type UserSort, type UserStatus } from '@portal/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@/lib/api-client';
import { pageParams, totalOf } from './paging';
import { adminKeys } from './query-keys';

/** What the admin picked: search, status filter, order, page and page size. */
export interface UsersQuery {
  search: string;
  status?: UserStatus | undefined;
  sort?: UserSort | undefined;
  page: number;
  pageSize: number;
}

export interface UsersPage {
  users: AllowedUser[];
  total: number;
}

/** GET /users with search and paging, so the screen never downloads the whole list. */
export async function getUsersPage(api: ApiClient, query: UsersQuery, signal?: AbortSignal): Promise<UsersPage> {
  const params = pageParams(query.page, query.pageSize);
  if (query.search) params.set('search', query.search);
  if (query.status) params.set('status', query.status);
  if (query.sort && query.sort !== 'email') params.set('sort', query.sort);
  const { data, headers } = await api.request(`/users?${params}`, {
    auth: true,
    schema: allowedUserListSchema,
    signal,
  });
  return { users: data, total: totalOf(headers, data.length) };
}

export const usersPageQueryOptions = (api: ApiClient, query: UsersQuery) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'users', query] as const,
    queryFn: ({ signal }) => getUsersPage(api, query, signal),
    // Paging and searching keep the rows on screen until the next ones arrive, instead of a blank table.
    placeholderData: keepPreviousData,
    retry: false,
  });

export function useUsersPage(query: UsersQuery) {
  const api = useApiClient();
  return useQuery(usersPageQueryOptions(api, query));
}
