import type { AllowedUser } from '@portal/contract';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { OWN_ACCOUNT_DELETE_REASON } from '../messages';
import { EmailText } from './EmailText';

/** The accessible name the benchmark and the e2e tests find the table by. */
export const USERS_TABLE_LABEL = 'Allowed users';

const dateAdded = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

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

export interface UserSelection {
  selected: ReadonlySet<string>;
  onToggle: (email: string, selected: boolean) => void;
}

export interface UserActions {
  onDelete: (email: string, trigger: HTMLButtonElement) => void;
  onSetAdmin: (email: string, admin: boolean) => void;
  onResend: (email: string) => void;
  onEndSessions: (email: string) => void;
  onResetPasskeys: (email: string) => void;
}

/**
 * One row per allowed user, each with a checkbox to select it and its delete button (the signed-in admin's own
 * both disabled, with the reason).
 * On a phone each row becomes a card (styles.css), so nothing needs sideways scrolling.
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
  return (
    <Table hover className="admin-table align-middle mb-0" aria-label={USERS_TABLE_LABEL}>
      <thead>
        <tr>
          <th scope="col" className="select-cell">
            <span className="visually-hidden">Select</span>
          </th>
          <th scope="col">Email</th>
          <th scope="col">Status</th>
          <th scope="col">Added</th>
          <th scope="col" className="text-end">
            Actions
          </th>
        </tr>
      </thead>
      <tbody>
        {users.length === 0 ? (
          <tr>
            <td colSpan={5} className="text-center text-body-secondary py-4">
              {emptyText}
            </td>
          </tr>
        ) : (
          users.map((user) => {
            const own = user.email === currentEmail;
            const reasonId = `own-account-${user.email}`;
            return (
              <tr key={user.email}>
                <td className="select-cell">
                  <input
                    type="checkbox"
                    className="form-check-input"
                    aria-label={`Select ${user.email}`}
                    checked={selection.selected.has(user.email)}
                    disabled={own}
                    aria-describedby={own ? reasonId : undefined}
                    onChange={(event) => selection.onToggle(user.email, event.target.checked)}
                  />
                </td>
                <td className="email-cell">
                  <EmailText email={user.email} />
                </td>
                <td data-label="Status">
                  <StatusBadges user={user} />
                </td>
                <td data-label="Added" className="small">
                  <span className="text-nowrap">{dateAdded.format(new Date(user.createdAt))}</span>
                  {user.createdBy && <span className="d-block admin-note text-break">by {user.createdBy}</span>}
                </td>
                <td className="text-end actions-cell">
                  <div className="d-flex flex-wrap gap-1 justify-content-end">
                    {!user.activated && (
                      <Button
                        variant="outline-secondary"
                        size="sm"
                        aria-label={`Resend invitation to ${user.email}`}
                        onClick={() => actions.onResend(user.email)}
                      >
                        Resend invitation
                      </Button>
                    )}
                    <Button
                      variant="outline-secondary"
                      size="sm"
                      aria-label={`End sessions of ${user.email}`}
                      onClick={() => actions.onEndSessions(user.email)}
                    >
                      End sessions
                    </Button>
                    {user.admin && !own && (
                      <Button
                        variant="outline-secondary"
                        size="sm"
                        aria-label={`Reset passkeys of ${user.email}`}
                        onClick={() => actions.onResetPasskeys(user.email)}
                      >
                        Reset passkeys
                      </Button>
                    )}
                    <Button
                      variant="outline-secondary"
                      size="sm"
                      aria-label={`${user.admin ? 'Remove admin from' : 'Make admin'} ${user.email}`}
                      onClick={() => actions.onSetAdmin(user.email, !user.admin)}
                    >
                      {user.admin ? 'Remove admin' : 'Make admin'}
                    </Button>
                    <Button
                      variant="outline-danger"
                      size="sm"
                      aria-label={`Delete ${user.email}`}
                      disabled={own}
                      aria-describedby={own ? reasonId : undefined}
                      onClick={(event) => actions.onDelete(user.email, event.currentTarget)}
                    >
                      Delete
                    </Button>
                  </div>
                  {own && (
                    <div id={reasonId} className="small admin-note mt-1">
                      {OWN_ACCOUNT_DELETE_REASON}
                    </div>
                  )}
                </td>
              </tr>
            );
          })
        )}
      </tbody>
    </Table>
  );
}
