import { USER_SORTS, USER_STATUSES, type UserSort, type UserStatus } from '@portal/contract';
import { PHONE_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import type { UsersQuery } from '../api/get-users-page';
import { PAGE_SIZE, PAGE_SIZES, PHONE_PAGE_SIZE } from '../api/paging';
import { useAddressQuery } from '@/hooks/use-address-query';

/** What the admin chose to see of the user list; `page` counts from 0 (the address shows it from 1). */
export interface UsersListParams {
  search: string;
  status: UserStatus | undefined;
  sort: UserSort;
  page: number;
  pageSize: number;
}

/** The names in the address: short, so a shared link stays readable (`/admin?q=smith&status=invited&page=2`). */
const NAMES = { search: 'q', status: 'status', sort: 'sort', page: 'page', pageSize: 'size' } as const;
const LIST_NAMES = new Set<string>(Object.values(NAMES));
const DEFAULT_SORT: UserSort = 'email';

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  values.find((candidate) => candidate === value);

/** The list state in a query string; anything unknown or out of range reads as the default, never as an error. */
export function readListParams(query: URLSearchParams, defaultPageSize: number): UsersListParams {
  const size = Number(query.get(NAMES.pageSize));
  const page = Number(query.get(NAMES.page));
  return {
    search: (query.get(NAMES.search) ?? '').trim(),
    status: oneOf(USER_STATUSES, query.get(NAMES.status)),
    sort: oneOf(USER_SORTS, query.get(NAMES.sort)) ?? DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : defaultPageSize,
  };
}

/** The query string of a list state, leaving out what is the default. */
export function writeListParams(params: UsersListParams, defaultPageSize: number): URLSearchParams {
  const query = new URLSearchParams();
  if (params.search) query.set(NAMES.search, params.search);
  if (params.status) query.set(NAMES.status, params.status);
  if (params.sort !== DEFAULT_SORT) query.set(NAMES.sort, params.sort);
  if (params.page > 0) query.set(NAMES.page, String(params.page + 1));
  if (params.pageSize !== defaultPageSize) query.set(NAMES.pageSize, String(params.pageSize));
  return query;
}

/**
 * Identifies the list an admin is looking at (filter and page) as the address names it: notices and selections
 * belong to one. A page size the admin did not choose is left out, so a window resized across the phone
 * breakpoint (or a full-page screenshot that briefly does so) keeps them; a selection only ever counts the
 * rows on screen.
 */
export const listKeyOf = (params: UsersListParams, defaultPageSize: number) =>
  writeListParams(params, defaultPageSize).toString();

/**
 * The user list's search, status, order, page and page size, kept in the address so Back, reload and a
 * shared link show the same list. A change of anything but the page starts again at the first page. A
 * new page or filter is a history entry; typing a search replaces the entry instead of adding one per pause.
 */
export function useUsersListParams() {
  const { query, change: changeAddress } = useAddressQuery();
  const defaultPageSize = useMediaQuery(PHONE_QUERY) ? PHONE_PAGE_SIZE : PAGE_SIZE;
  const params = readListParams(query, defaultPageSize);

  const update = (change: Partial<UsersListParams>, options: { replace?: boolean } = {}) => {
    changeAddress((current) => {
      const next = { ...readListParams(current, defaultPageSize), ...change, page: change.page ?? 0 };
      const written = writeListParams(next, defaultPageSize);
      // Names that are not the list's (the admin page's open tab) stay as they are.
      for (const [name, value] of current) if (!LIST_NAMES.has(name)) written.append(name, value);
      return written;
    }, options);
  };

  const usersQuery: UsersQuery = { ...params };
  const keyOf = (other: UsersListParams) => listKeyOf(other, defaultPageSize);
  return { params, usersQuery, listKey: keyOf(params), keyOf, update };
}
