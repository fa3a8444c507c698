import { screen, within } from '@testing-library/react';

/** The row of the admin page's user table that belongs to `email`, found by its selection checkbox. */
export async function allowedUserRow(email: string): Promise<HTMLElement> {
  const table = await screen.findByRole('table', { name: 'Allowed users' });
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByRole('checkbox', { name: `Select ${email}` }));
  if (!row) throw new Error(`no row for ${email}`);
  return row;
}
