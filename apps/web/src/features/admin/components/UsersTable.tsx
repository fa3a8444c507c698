import type { AllowedUser } from '@portal/contract';
import Table from 'react-bootstrap/Table';
import { PHONE_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { formatDate, formatDateTime } from '@/lib/format-date';
import { UserRow } from './UserRow';
import type { UserActions } from './user-row-actions';

/** The accessible name the benchmark and the e2e tests find the table by. */
export const USERS_TABLE_LABEL = 'Allowed users';

export interface UserSelection {
  selected: ReadonlySet<string>;
  onToggle: (email: string, selected: boolean) => void;
}

/**
 * One line per allowed user on a laptop: fixed column widths, long addresses cut with an ellipsis (whole on
 * hover, and while any control of the row has focus), Delete on every row and the rarer actions in a menu.
 * On a phone each row is a two-line card (styles.css): the address, then status, date and the actions.
 */
export function UsersTable({
  users,
  currentEmail,
  emptyText,
  actions,
  selection,
}: {
  users: AllowedUser[];
  currentEmail: string;
  emptyText: string;
  actions: UserActions;
  selection: UserSelection;
}) {
  // A phone's card has room for the day; the time is in the cell's title and on a laptop.
  const formatAdded = useMediaQuery(PHONE_QUERY) ? formatDate : formatDateTime;
  return (
    <Table hover className="admin-table users-table align-middle mb-0" aria-label={USERS_TABLE_LABEL}>
      <colgroup>
        <col className="col-select" />
        <col />
        <col className="col-status" />
        <col className="col-added" />
        <col className="col-by" />
        <col className="col-actions" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col" className="select-cell">
            <span className="visually-hidden">Select</span>
          </th>
          <th scope="col">Email</th>
          <th scope="col">Status</th>
          <th scope="col" className="added-cell">
            Added
          </th>
          <th scope="col" className="by-cell">
            Added by
          </th>
          <th scope="col" className="actions-cell">
            Actions
          </th>
        </tr>
      </thead>
      <tbody>
        {users.length === 0 ? (
          <tr>
            <td colSpan={6} className="empty-cell text-center text-body-secondary py-4">
              {emptyText}
            </td>
          </tr>
        ) : (
          users.map((user) => (
            <UserRow
              key={user.email}
              user={user}
              own={user.email === currentEmail}
              selected={selection.selected.has(user.email)}
              onToggle={selection.onToggle}
              actions={actions}
              formatAdded={formatAdded}
            />
          ))
        )}
      </tbody>
    </Table>
  );
}
