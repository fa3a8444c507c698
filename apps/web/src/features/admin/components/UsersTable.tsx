import type { AllowedUser } from '@portal/contract';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { EmailText } from './EmailText';

/** The accessible name the benchmark and the e2e tests find the table by. */
export const USERS_TABLE_LABEL = 'Allowed users';

function StatusBadges({ user }: { user: AllowedUser }) {
  return (
    <div className="d-flex flex-wrap gap-1">
      {user.activated ? (
        <span className="badge status-badge status-activated">Activated</span>
      ) : (
        <span className="badge status-badge status-invited" title="Has not set a password yet">
          Invited
        </span>
      )}
      {user.admin && <span className="badge status-badge status-admin">Admin</span>}
    </div>
  );
}

export function UsersTable({
  users,
  emptyText,
  onDelete,
}: {
  users: AllowedUser[];
  emptyText: string;
  onDelete: (email: string, trigger: HTMLButtonElement) => void;
}) {
  return (
    <Table hover className="admin-table align-middle mb-0" aria-label={USERS_TABLE_LABEL}>
      <thead>
        <tr>
          <th scope="col">Email</th>
          <th scope="col">Status</th>
          <th scope="col" className="text-end">
            Actions
          </th>
        </tr>
      </thead>
      <tbody>
        {users.length === 0 ? (
          <tr>
            <td colSpan={3} className="text-center text-body-secondary py-4">
              {emptyText}
            </td>
          </tr>
        ) : (
          users.map((user) => (
            <tr key={user.email}>
              <td className="email-cell">
                <EmailText email={user.email} />
              </td>
              <td>
                <StatusBadges user={user} />
              </td>
              <td className="text-end">
                <Button
                  variant="outline-danger"
                  size="sm"
                  aria-label={`Delete ${user.email}`}
                  onClick={(event) => onDelete(user.email, event.currentTarget)}
                >
                  Delete
                </Button>
              </td>
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}
