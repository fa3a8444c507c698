import type { AllowedUser } from '@portal/contract';
import type { ApiClient } from '@/lib/api-client';
import { getUsersPage, type UsersQuery } from './get-users-page';

/** The largest page the API serves; an export walks the filtered list in pages of this size. */
const EXPORT_PAGE_SIZE = 1000;

/**
 * A cell a spreadsheet would read as a formula (=, +, -, @, or a leading tab or carriage return it strips
 * first) gets a leading apostrophe, so it shows as the text it is and runs nothing: an address such as
 * `=HYPERLINK(...)@x.example` is valid, and whoever adds it chooses what the exported file contains.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The list as CSV: one row per user with status, role and when and by whom they were added. */
export function usersCsv(users: AllowedUser[]): string {
  const header = ['email', 'status', 'admin', 'added', 'added_by'];
  const rows = users.map((user) => [
    user.email,
    user.activated ? 'activated' : 'invited',
    user.admin ? 'yes' : 'no',
    user.createdAt,
    user.createdBy ?? '',
  ]);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Every user matching the admin's search and status filter, in the chosen order, as one CSV file. */
export async function exportUsers(api: ApiClient, query: Omit<UsersQuery, 'page' | 'pageSize'>): Promise<Blob> {
  const users: AllowedUser[] = [];
  for (let page = 0; ; page++) {
    const batch = await getUsersPage(api, { ...query, page, pageSize: EXPORT_PAGE_SIZE });
    users.push(...batch.users);
    if (batch.users.length < EXPORT_PAGE_SIZE || users.length >= batch.total) break;
  }
  return new Blob([usersCsv(users)], { type: 'text/csv;charset=utf-8' });
}
