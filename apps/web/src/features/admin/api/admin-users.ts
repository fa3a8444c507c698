import { allowedUserListSchema, TOTAL_COUNT_HEADER, type AllowedUser } from '@portal/contract';
import type { ApiClient } from '@/lib/api-client';

/** One screenful: small enough to render at once, and the server pages with an index even at 100,000 rows. */
export const USERS_PAGE_SIZE = 50;

export interface UsersPage {
  users: AllowedUser[];
  total: number;
}

const userPath = (email: string) => `/users/${encodeURIComponent(email)}`;

/** Reads the total from the header the API sets on paged answers; an unpaged answer is its own total. */
export function totalOf(headers: Headers, rows: number): number {
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return headers.has(TOTAL_COUNT_HEADER) && Number.isFinite(total) ? total : rows;
}

/** GET /users with search and paging, so the screen never downloads the whole list. */
export async function listUsers(
  api: ApiClient,
  query: { search: string; page: number },
  signal?: AbortSignal,
): Promise<UsersPage> {
  const params = new URLSearchParams({ limit: String(USERS_PAGE_SIZE), offset: String(query.page * USERS_PAGE_SIZE) });
  if (query.search) params.set('search', query.search);
  const { data, headers } = await api.request(`/users?${params}`, {
    auth: true,
    schema: allowedUserListSchema,
    signal,
  });
  return { users: data, total: totalOf(headers, data.length) };
}

/** Creates the account and its row: bearer token, JSON content type, empty body (the spec's call). */
export async function createUser(api: ApiClient, email: string): Promise<void> {
  await api.request(userPath(email), { method: 'POST', auth: true, json: null });
}

/** Registers the id the admin just created; the spec sends this one without an authorization header. */
export async function registerUser(api: ApiClient, email: string): Promise<void> {
  await api.request('/users', { method: 'POST', json: { userId: email } });
}

export async function deleteUser(api: ApiClient, email: string): Promise<void> {
  await api.request(userPath(email), { method: 'DELETE', auth: true });
}
