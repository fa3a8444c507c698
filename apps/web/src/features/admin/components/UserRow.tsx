import type { AllowedUser } from '@portal/contract';
import Button from 'react-bootstrap/Button';
import { formatDateTime } from '@/lib/format-date';
import {
  DEACTIVATED_TITLE,
  DIRECTORY_DELETE_REASON,
  DIRECTORY_TITLE,
  OWN_ACCOUNT_DELETE_REASON,
  passkeyCount,
  passkeyDates,
} from '../messages';
import type { UserActions } from './user-row-actions';
import { UserRowMenu } from './UserRowMenu';

/**
 * Why this row cannot be deleted here, if it cannot: the signed-in admin's own row, or a row the company
 * directory keeps (the server would refuse both). Said in the row and read with the disabled controls.
 */
function deleteRefusal(user: AllowedUser, own: boolean): { id: string; reason: string } | undefined {
  if (own) return { id: `own-account-${user.email}`, reason: OWN_ACCOUNT_DELETE_REASON };
  if (user.managedBy === 'directory') return { id: `directory-${user.email}`, reason: DIRECTORY_DELETE_REASON };
  return undefined;
}

function StatusBadges({
  user,
  own,
  refusal,
}: {
  user: AllowedUser;
  own: boolean;
  refusal: ReturnType<typeof deleteRefusal>;
}) {
  return (
    <>
      <div className="status-badges">
        {user.suspended ? (
          <span className="badge status-badge status-deactivated" title={DEACTIVATED_TITLE}>
            Deactivated
          </span>
        ) : user.activated ? (
          <span className="badge status-badge status-activated">Activated</span>
        ) : (
          <span className="badge status-badge status-invited" title="Has not set a password yet">
            Invited
          </span>
        )}
        {user.admin && <span className="badge status-badge status-admin">Admin</span>}
        {user.finance && <span className="badge status-badge status-finance">Finance</span>}
        {own && <span className="badge status-badge status-neutral">You</span>}
      </div>
      {/* Below the badges, not among them: the badges keep one line, the dates wrap under them. */}
      {user.passkeys && <PasskeysNote passkeys={user.passkeys} />}
      {/* Said where everyone sees it, and read with the disabled checkbox and Delete (aria-describedby). */}
      {refusal && (
        <span id={refusal.id} className="small admin-note own-account-note">
          {refusal.reason}
        </span>
      )}
    </>
  );
}

/**
 * An administrator's passkeys, each with when it was set up and last used: a passkey nobody remembers setting
 * up, or an admin still without one, shows here.
 */
function PasskeysNote({ passkeys }: { passkeys: NonNullable<AllowedUser['passkeys']> }) {
  const dates = passkeys.length > 0 ? `: ${passkeys.map(passkeyDates).join('; ')}` : '';
  const text = `${passkeyCount(passkeys.length)}${dates}`;
  return (
    <span className="small admin-note passkeys-note" title={text}>
      {text}
    </span>
  );
}

/** One allowed user: checkbox, address, status, when and by whom added, Delete and the row's menu. */
export function UserRow({
  user,
  own,
  selected,
  onToggle,
  actions,
  formatAdded,
}: {
  user: AllowedUser;
  /** The signed-in admin's own row: neither selectable nor deletable, with the reason (as a directory's row). */
  own: boolean;
  selected: boolean;
  onToggle: (email: string, selected: boolean) => void;
  actions: UserActions;
  formatAdded: (at: string) => string;
}) {
  const { email } = user;
  const refusal = deleteRefusal(user, own);
  const reasonId = refusal?.id;
  return (
    <tr>
      <td className="select-cell">
        {/* The label around the box fills the cell: a click anywhere in it ticks the box (44 px square on a phone). */}
        <label className="select-target">
          <input
            type="checkbox"
            className="form-check-input m-0"
            aria-label={`Select ${email}`}
            checked={selected}
            disabled={refusal !== undefined}
            aria-describedby={reasonId}
            onChange={(event) => onToggle(email, event.target.checked)}
          />
        </label>
      </td>
      <td className="email-cell">
        <span className="cell-text" title={email}>
          {email}
        </span>
      </td>
      <td className="status-cell">
        <StatusBadges user={user} own={own} refusal={refusal} />
      </td>
      <td className="added-cell">
        <time className="cell-text" dateTime={user.createdAt} title={formatDateTime(user.createdAt)}>
          {formatAdded(user.createdAt)}
        </time>
      </td>
      <td className="by-cell">
        {user.managedBy === 'directory' ? (
          // Kept by the company directory (SCIM): the admin screen refuses changes to it, so it says so here.
          <span className="badge status-badge status-directory" title={DIRECTORY_TITLE}>
            Directory
          </span>
        ) : (
          <span className="cell-text admin-note" title={user.createdBy ?? undefined}>
            {user.createdBy ?? '–'}
          </span>
        )}
      </td>
      <td className="actions-cell">
        <div className="row-actions">
          {/* A disabled button takes no hover: the wrapper carries the reason's tooltip for a mouse. */}
          <span title={refusal?.reason}>
            <Button
              variant="outline-danger"
              size="sm"
              aria-label={`Delete ${email}`}
              disabled={refusal !== undefined}
              aria-describedby={reasonId}
              onClick={(event) => actions.onDelete(email, event.currentTarget)}
            >
              Delete
            </Button>
          </span>
          <UserRowMenu user={user} own={own} actions={actions} />
        </div>
      </td>
    </tr>
  );
}
