import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** The admin page's user list, as the admin tests find it. */
export const usersTable = (page: Page) => page.getByRole('table', { name: 'Allowed users' });

// By the row's own checkbox: "No users match <search>." is a row whose text holds the address too.
export const rowOf = (page: Page, email: string) =>
  usersTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('checkbox', { name: `Select ${email}`, exact: true }) });

export const usersPager = (page: Page) => page.getByRole('navigation', { name: 'users pages' });

/**
 * Searches the list for `text` and waits for the list to show what was found, as a person looks before acting.
 * Clicking a row at once lands while the search is still on its way: the click's press sends it (the field's
 * blur), the list shrinks under the pointer before the release, and the click reaches no button.
 */
export async function searchUsers(page: Page, text: string, found: number) {
  await page.getByLabel('Search by email').fill(text);
  await expect(usersPager(page)).toContainText(` of ${found} users`);
}
